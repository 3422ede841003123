CREATE TABLE `incident_components` (
	`incident_id` integer NOT NULL,
	`vendor_id` integer NOT NULL,
	`component_id` text NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`incident_id`, `component_id`),
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `incident_components_vendor_name` ON `incident_components` (`vendor_id`,`name`);--> statement-breakpoint
DROP INDEX `version_kinds_kind_observed`;--> statement-breakpoint
DROP INDEX `version_kinds_vendor_kind_observed`;--> statement-breakpoint
CREATE INDEX `version_kinds_kind_observed` ON `version_kinds` (`kind`,`observed_at`,`version_id`);--> statement-breakpoint
CREATE INDEX `version_kinds_vendor_kind_observed` ON `version_kinds` (`vendor_id`,`kind`,`observed_at`,`version_id`);--> statement-breakpoint
ALTER TABLE `incidents` ADD `postmortem_at` text;--> statement-breakpoint
ALTER TABLE `incidents` ADD `edits_after_resolution` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `incidents_vendor_started` ON `incidents` (`vendor_id`,`started_at`);