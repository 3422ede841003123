CREATE TABLE `derivation_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`vendor_id` integer NOT NULL,
	`reason` text NOT NULL,
	`from_observed_at` text,
	`from_source` text,
	`from_hash` text,
	`status` text NOT NULL,
	`requests` integer DEFAULT 1 NOT NULL,
	`scratch_path` text,
	`captures_total` integer DEFAULT 0 NOT NULL,
	`captures_done` integer DEFAULT 0 NOT NULL,
	`incidents_swapped` integer DEFAULT 0 NOT NULL,
	`longest_hold_ms` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`finished_at` text,
	`lease_owner` text,
	`lease_until` text,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `derivation_jobs_status` ON `derivation_jobs` (`status`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `derivation_jobs_active_vendor` ON `derivation_jobs` (`vendor_id`) WHERE "derivation_jobs"."status" IN ('queued', 'building', 'swapping');--> statement-breakpoint
CREATE TABLE `incident_sources` (
	`incident_id` integer NOT NULL,
	`vendor_id` integer NOT NULL,
	`source` text NOT NULL,
	`listed` integer NOT NULL,
	`hash` text,
	PRIMARY KEY(`incident_id`, `source`),
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `incident_sources_vendor_source` ON `incident_sources` (`vendor_id`,`source`,`listed`);--> statement-breakpoint
CREATE TABLE `incident_states` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`incident_id` integer NOT NULL,
	`capture_id` integer NOT NULL,
	`state` text NOT NULL,
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`capture_id`) REFERENCES `captures`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `incident_states_incident` ON `incident_states` (`incident_id`,`id`);--> statement-breakpoint
CREATE INDEX `incident_states_capture` ON `incident_states` (`capture_id`);--> statement-breakpoint
ALTER TABLE `captures` ADD `warnings` text;--> statement-breakpoint
ALTER TABLE `captures` ADD `warning_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `captures` ADD `window_start` text;--> statement-breakpoint
CREATE INDEX `captures_vendor_order` ON `captures` (`vendor_id`,`observed_at`,`source`,`hash`);--> statement-breakpoint
CREATE INDEX `captures_vendor_source_order` ON `captures` (`vendor_id`,`source`,`observed_at`);--> statement-breakpoint
CREATE INDEX `captures_with_warnings` ON `captures` (`observed_at`) WHERE "captures"."warning_count" > 0;--> statement-breakpoint
CREATE INDEX `incidents_vendor_presence_seen` ON `incidents` (`vendor_id`,`presence`,`first_seen_at`);--> statement-breakpoint
ALTER TABLE `vendors` DROP COLUMN `needs_rederive`;--> statement-breakpoint
-- Incidents archived before records: the source that last listed each one, as the only source.
INSERT INTO `incident_sources` (`incident_id`, `vendor_id`, `source`, `listed`, `hash`)
SELECT `id`, `vendor_id`, `source`, `presence` = 'listed', `observed_hash` FROM `incidents`;
