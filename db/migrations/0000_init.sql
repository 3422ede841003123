CREATE TABLE `capture_bodies` (
	`hash` text PRIMARY KEY NOT NULL,
	`encoding` text NOT NULL,
	`size` integer NOT NULL,
	`body` blob NOT NULL
);
--> statement-breakpoint
CREATE TABLE `captures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`vendor_id` integer NOT NULL,
	`source` text NOT NULL,
	`platform` text NOT NULL,
	`observed_at` text NOT NULL,
	`outcome` text NOT NULL,
	`error` text,
	`size` integer,
	`hash` text NOT NULL,
	`body_hash` text,
	`incident_count` integer,
	`version_count` integer DEFAULT 0 NOT NULL,
	`recorded_at` text NOT NULL,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`body_hash`) REFERENCES `capture_bodies`(`hash`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `captures_identity` ON `captures` (`vendor_id`,`source`,`observed_at`,`hash`);--> statement-breakpoint
CREATE INDEX `captures_vendor_observed` ON `captures` (`vendor_id`,`observed_at`);--> statement-breakpoint
CREATE TABLE `incident_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`incident_id` integer NOT NULL,
	`vendor_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`observed_at` text NOT NULL,
	`hash` text NOT NULL,
	`snapshot` text NOT NULL,
	`changes` text NOT NULL,
	`kinds` text NOT NULL,
	`summary` text NOT NULL,
	`capture_id` integer NOT NULL,
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`capture_id`) REFERENCES `captures`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `versions_identity` ON `incident_versions` (`incident_id`,`seq`);--> statement-breakpoint
CREATE INDEX `versions_vendor_observed` ON `incident_versions` (`vendor_id`,`observed_at`);--> statement-breakpoint
CREATE INDEX `versions_observed` ON `incident_versions` (`observed_at`);--> statement-breakpoint
CREATE INDEX `versions_capture` ON `incident_versions` (`capture_id`);--> statement-breakpoint
CREATE TABLE `incidents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`vendor_id` integer NOT NULL,
	`provider_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`status` text,
	`impact` text,
	`started_at` text,
	`resolved_at` text,
	`presence` text NOT NULL,
	`source` text NOT NULL,
	`first_seen_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`observed_hash` text NOT NULL,
	`version_count` integer NOT NULL,
	`last_changed_at` text NOT NULL,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `incidents_identity` ON `incidents` (`vendor_id`,`provider_id`);--> statement-breakpoint
CREATE INDEX `incidents_vendor_source_presence` ON `incidents` (`vendor_id`,`source`,`presence`);--> statement-breakpoint
CREATE INDEX `incidents_vendor_changed` ON `incidents` (`vendor_id`,`last_changed_at`);--> statement-breakpoint
CREATE INDEX `incidents_started` ON `incidents` (`started_at`);--> statement-breakpoint
CREATE TABLE `vendors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`platform` text NOT NULL,
	`derived_with` text,
	`needs_rederive` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vendors_slug_unique` ON `vendors` (`slug`);--> statement-breakpoint
CREATE TABLE `version_kinds` (
	`version_id` integer NOT NULL,
	`kind` text NOT NULL,
	`vendor_id` integer NOT NULL,
	`observed_at` text NOT NULL,
	PRIMARY KEY(`version_id`, `kind`),
	FOREIGN KEY (`version_id`) REFERENCES `incident_versions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `version_kinds_kind_observed` ON `version_kinds` (`kind`,`observed_at`);--> statement-breakpoint
CREATE INDEX `version_kinds_vendor_kind_observed` ON `version_kinds` (`vendor_id`,`kind`,`observed_at`);