CREATE TABLE `host_slots` (
	`origin` text PRIMARY KEY NOT NULL,
	`next_start_ms` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `poll_state` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `poll_state` ADD `lease_expires_at` text;