ALTER TABLE `capture_bodies` ADD `base_hash` text;--> statement-breakpoint
ALTER TABLE `capture_bodies` ADD `depth` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `capture_bodies` ADD `chain_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `capture_bodies` ADD `run` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `capture_bodies` ADD `vendor_id` integer;--> statement-breakpoint
ALTER TABLE `capture_bodies` ADD `source` text;--> statement-breakpoint
ALTER TABLE `capture_bodies` ADD `position` integer;--> statement-breakpoint
CREATE INDEX `capture_bodies_chain` ON `capture_bodies` (`vendor_id`,`source`,`position`);--> statement-breakpoint
CREATE INDEX `capture_bodies_vendor_order` ON `capture_bodies` (`vendor_id`,`position`);--> statement-breakpoint
CREATE INDEX `capture_bodies_base` ON `capture_bodies` (`base_hash`) WHERE "capture_bodies"."base_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `capture_bodies_legacy` ON `capture_bodies` (`hash`) WHERE "capture_bodies"."encoding" = 'gzip';--> statement-breakpoint
CREATE INDEX `captures_body` ON `captures` (`body_hash`) WHERE "captures"."body_hash" IS NOT NULL;