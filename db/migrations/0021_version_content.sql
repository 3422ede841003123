PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_incident_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`incident_id` integer NOT NULL,
	`vendor_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`observed_at` text NOT NULL,
	`hash` text NOT NULL,
	`snapshot` text,
	`patch` text,
	`kinds` text NOT NULL,
	`content` blob NOT NULL,
	`text_version` integer DEFAULT 1 NOT NULL,
	`capture_id` integer NOT NULL,
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`capture_id`) REFERENCES `captures`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT '__new_incident_versions', `seq` FROM `sqlite_sequence` WHERE `name` = 'incident_versions';--> statement-breakpoint
INSERT INTO `__new_incident_versions`("id", "incident_id", "vendor_id", "seq", "observed_at", "hash", "snapshot", "patch", "kinds", "content", "text_version", "capture_id") SELECT "id", "incident_id", "vendor_id", "seq", "observed_at", "hash", "snapshot", "patch", "kinds", redline_version_content("changes", "summary", "headline", "title", "impact", "incident_kind"), "text_version", "capture_id" FROM `incident_versions` ORDER BY "id";--> statement-breakpoint
CREATE TABLE `__keep_version_kinds` AS SELECT * FROM `version_kinds`;--> statement-breakpoint
DROP TABLE `incident_versions`;--> statement-breakpoint
ALTER TABLE `__new_incident_versions` RENAME TO `incident_versions`;--> statement-breakpoint
CREATE UNIQUE INDEX `versions_identity` ON `incident_versions` (`incident_id`,`seq`);--> statement-breakpoint
CREATE INDEX `versions_vendor_observed` ON `incident_versions` (`vendor_id`,`observed_at`);--> statement-breakpoint
CREATE INDEX `versions_observed` ON `incident_versions` (`observed_at`);--> statement-breakpoint
CREATE INDEX `versions_capture` ON `incident_versions` (`capture_id`);--> statement-breakpoint
INSERT INTO `version_kinds` SELECT * FROM `__keep_version_kinds` WHERE true ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP TABLE `__keep_version_kinds`;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_insert` AFTER INSERT ON `incident_versions` BEGIN UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_update` AFTER UPDATE ON `incident_versions` BEGIN UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_delete` AFTER DELETE ON `incident_versions` BEGIN UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1; END;--> statement-breakpoint
UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;--> statement-breakpoint
PRAGMA foreign_keys=ON;
