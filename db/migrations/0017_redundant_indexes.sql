DROP INDEX `captures_vendor_observed`;--> statement-breakpoint
DROP INDEX `captures_vendor_source_order`;--> statement-breakpoint
DROP INDEX `incidents_started`;