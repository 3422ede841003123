CREATE TABLE `poll_state` (
	`vendor_id` integer PRIMARY KEY NOT NULL,
	`next_poll_at` text NOT NULL,
	`last_poll_at` text,
	`last_outcome` text,
	`last_error` text,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`backoff_seconds` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`vendor_id` integer NOT NULL,
	`url` text NOT NULL,
	`platform` text NOT NULL,
	`etag` text,
	`last_modified` text,
	`last_body_hash` text,
	`last_fetched_at` text,
	`last_status` integer,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sources_identity` ON `sources` (`vendor_id`,`url`);--> statement-breakpoint
ALTER TABLE `vendors` ADD `url` text;--> statement-breakpoint
ALTER TABLE `vendors` ADD `interval_seconds` integer;--> statement-breakpoint
ALTER TABLE `vendors` ADD `enabled` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `vendors` ADD `origin` text DEFAULT 'import' NOT NULL;--> statement-breakpoint
ALTER TABLE `vendors` ADD `homepage` text;--> statement-breakpoint
ALTER TABLE `vendors` ADD `status_page_url` text;