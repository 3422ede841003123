ALTER TABLE `captures` ADD `last_observed_at` text;--> statement-breakpoint
ALTER TABLE `captures` ADD `observations` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `captures_vendor_runs` ON `captures` (`vendor_id`,`last_observed_at`) WHERE "captures"."observations" > 1;--> statement-breakpoint
ALTER TABLE `vendors` ADD `standings_read_at` text;--> statement-breakpoint
ALTER TABLE `vendors` ADD `standings_read_by` text;--> statement-breakpoint
UPDATE `captures` SET `last_observed_at` = `observed_at`;
