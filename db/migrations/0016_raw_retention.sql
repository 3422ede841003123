ALTER TABLE `captures` ADD `body_pruned_at` text;--> statement-breakpoint
CREATE INDEX `captures_vendor_pruned` ON `captures` (`vendor_id`,`observed_at`) WHERE "captures"."body_pruned_at" IS NOT NULL;