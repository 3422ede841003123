CREATE TABLE `archive_revision` (
	`id` integer PRIMARY KEY NOT NULL,
	`revision` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `archive_revision` (`id`, `revision`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_insert` AFTER INSERT ON `incident_versions` BEGIN UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_update` AFTER UPDATE ON `incident_versions` BEGIN UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_delete` AFTER DELETE ON `incident_versions` BEGIN UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_vendor_insert` AFTER INSERT ON `vendors` BEGIN UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_vendor_update` AFTER UPDATE OF `slug`, `name`, `url`, `enabled` ON `vendors` BEGIN UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_vendor_delete` AFTER DELETE ON `vendors` BEGIN UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1; END;
