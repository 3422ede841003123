-- Side tables on a diet (decision 0024): version_kinds keyed as the kind lists read it, with the kind as its
-- code in lib/change-kinds.ts CHANGE_KIND_CODES and the time in milliseconds; incident_sources and
-- incident_components keyed by their primary keys alone; incidents' indexes that served no query dropped.
DROP INDEX `incidents_vendor_source_presence`;--> statement-breakpoint
DROP INDEX `incidents_vendor_changed`;--> statement-breakpoint
DROP INDEX `incidents_vendor_presence_seen`;--> statement-breakpoint
DROP INDEX `incidents_open`;--> statement-breakpoint
CREATE INDEX `incidents_open` ON `incidents` (`vendor_id`,`started_at`) WHERE "incidents"."presence" = 'listed' AND "incidents"."resolved_at" IS NULL;--> statement-breakpoint
CREATE INDEX `incidents_listed_seen` ON `incidents` (`vendor_id`,`first_seen_at`) WHERE "incidents"."presence" = 'listed';--> statement-breakpoint
CREATE TABLE `__new_version_kinds` (
	`kind` integer NOT NULL,
	`observed_ms` integer NOT NULL,
	`version_id` integer NOT NULL,
	`vendor_id` integer NOT NULL,
	PRIMARY KEY(`kind`, `observed_ms`, `version_id`),
	FOREIGN KEY (`version_id`) REFERENCES `incident_versions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- A name that is no kind any more could never be asked for: it has no code and is left behind.
INSERT INTO `__new_version_kinds`("kind", "observed_ms", "version_id", "vendor_id")
  SELECT * FROM (SELECT CASE "kind" WHEN 'incident-deleted' THEN 0 WHEN 'incident-reappeared' THEN 1 WHEN 'incident-reopened' THEN 2 WHEN 'impact-downgraded' THEN 3 WHEN 'update-edited' THEN 4 WHEN 'update-removed' THEN 5 WHEN 'update-backdated' THEN 6 WHEN 'timing-changed' THEN 7 WHEN 'postmortem-published' THEN 8 WHEN 'postmortem-edited' THEN 9 WHEN 'title-changed' THEN 10 WHEN 'relabelled' THEN 11 WHEN 'impact-escalated' THEN 12 WHEN 'impact-changed' THEN 13 WHEN 'incident-resolved' THEN 14 WHEN 'rescheduled' THEN 15 WHEN 'components-changed' THEN 16 WHEN 'status-changed' THEN 17 WHEN 'update-posted' THEN 18 WHEN 'incident-left-feed' THEN 19 WHEN 'incident-new' THEN 20 END AS code, CAST(round(unixepoch("observed_at", 'subsec') * 1000) AS INTEGER), "version_id", "vendor_id" FROM `version_kinds`) WHERE code IS NOT NULL;--> statement-breakpoint
DROP TABLE `version_kinds`;--> statement-breakpoint
ALTER TABLE `__new_version_kinds` RENAME TO `version_kinds`;--> statement-breakpoint
CREATE INDEX `version_kinds_vendor` ON `version_kinds` (`vendor_id`,`kind`,`observed_ms`,`version_id`);--> statement-breakpoint
CREATE INDEX `version_kinds_version` ON `version_kinds` (`version_id`);--> statement-breakpoint
CREATE TABLE `__new_incident_sources` (
	`incident_id` integer NOT NULL,
	`vendor_id` integer NOT NULL,
	`source` text NOT NULL,
	`listed` integer NOT NULL,
	`hash` text,
	PRIMARY KEY(`incident_id`, `source`),
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_incident_sources`("incident_id", "vendor_id", "source", "listed", "hash") SELECT "incident_id", "vendor_id", "source", "listed", "hash" FROM `incident_sources`;--> statement-breakpoint
DROP TABLE `incident_sources`;--> statement-breakpoint
ALTER TABLE `__new_incident_sources` RENAME TO `incident_sources`;--> statement-breakpoint
CREATE INDEX `incident_sources_listed` ON `incident_sources` (`vendor_id`,`source`) WHERE "incident_sources"."listed" = 1;--> statement-breakpoint
CREATE TABLE `__new_incident_components` (
	`incident_id` integer NOT NULL,
	`vendor_id` integer NOT NULL,
	`component_id` text NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`incident_id`, `component_id`),
	FOREIGN KEY (`incident_id`) REFERENCES `incidents`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_incident_components`("incident_id", "vendor_id", "component_id", "name") SELECT "incident_id", "vendor_id", "component_id", "name" FROM `incident_components`;--> statement-breakpoint
DROP TABLE `incident_components`;--> statement-breakpoint
ALTER TABLE `__new_incident_components` RENAME TO `incident_components`;--> statement-breakpoint
CREATE INDEX `incident_components_vendor_name` ON `incident_components` (`vendor_id`,`name`);
