CREATE TABLE `__new_capture_bodies` (
	`id` integer PRIMARY KEY NOT NULL,
	`hash` blob NOT NULL,
	`encoding` text NOT NULL,
	`size` integer NOT NULL,
	`body` blob NOT NULL,
	`base_id` integer,
	`depth` integer DEFAULT 0 NOT NULL,
	`chain_bytes` integer DEFAULT 0 NOT NULL,
	`run` integer DEFAULT 0 NOT NULL,
	`vendor_id` integer,
	`source_id` integer,
	`position` integer
);
--> statement-breakpoint
INSERT INTO `__new_capture_bodies`("id", "hash", "encoding", "size", "body", "base_id", "depth", "chain_bytes", "run", "vendor_id", "source_id", "position")
  SELECT b.rowid, unhex(b.hash), b.encoding, b.size, b.body, p.rowid, b.depth, b.chain_bytes, b.run, b.vendor_id, s.id, b.position
  FROM `capture_bodies` b LEFT JOIN `capture_bodies` p ON p.hash = b.base_hash LEFT JOIN `sources` s ON s.vendor_id = b.vendor_id AND s.url = b.source;--> statement-breakpoint
DROP INDEX `captures_body`;--> statement-breakpoint
ALTER TABLE `captures` ADD `body_id` integer REFERENCES `__new_capture_bodies`(`id`);--> statement-breakpoint
UPDATE `captures` SET `body_id` = (SELECT b.rowid FROM `capture_bodies` b WHERE b.hash = `captures`.`body_hash`), `body_hash` = NULL WHERE `body_hash` IS NOT NULL;--> statement-breakpoint
DROP TABLE `capture_bodies`;--> statement-breakpoint
ALTER TABLE `__new_capture_bodies` RENAME TO `capture_bodies`;--> statement-breakpoint
CREATE UNIQUE INDEX `capture_bodies_hash` ON `capture_bodies` (`hash`);--> statement-breakpoint
CREATE INDEX `capture_bodies_chain` ON `capture_bodies` (`source_id`,`position`);--> statement-breakpoint
CREATE INDEX `capture_bodies_vendor_order` ON `capture_bodies` (`vendor_id`,`position`);--> statement-breakpoint
CREATE INDEX `capture_bodies_base` ON `capture_bodies` (`base_id`) WHERE "capture_bodies"."base_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `capture_bodies_legacy` ON `capture_bodies` (`id`) WHERE "capture_bodies"."encoding" = 'gzip';--> statement-breakpoint
CREATE INDEX `captures_body` ON `captures` (`body_id`) WHERE "captures"."body_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `captures_retired_body_hash` ON `captures` (`body_hash`) WHERE "captures"."body_hash" IS NOT NULL;--> statement-breakpoint
DROP INDEX `captures_vendor_order`;--> statement-breakpoint
CREATE INDEX `captures_vendor_time` ON `captures` (`vendor_id`,`observed_at`);
