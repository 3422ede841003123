CREATE TABLE `hook_deliveries` (
	`vendor_id` integer NOT NULL,
	`content_hash` text NOT NULL,
	`received_at` text NOT NULL,
	PRIMARY KEY(`vendor_id`, `content_hash`),
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `push_polls` (
	`vendor_id` integer PRIMARY KEY NOT NULL,
	`requested_at` text NOT NULL,
	`due_at` text NOT NULL,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `throttle_telemetry` (
	`scope` text PRIMARY KEY NOT NULL,
	`throttled` integer DEFAULT 0 NOT NULL,
	`last_throttled_at` text,
	`last_alert_at` text
);
--> statement-breakpoint
ALTER TABLE `vendors` ADD `hook_secret_hash` text;