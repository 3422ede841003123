CREATE TABLE `archive_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`vendor_slug` text,
	`provider_id` text
);
--> statement-breakpoint
DROP TRIGGER `archive_revision_version_insert`;--> statement-breakpoint
DROP TRIGGER `archive_revision_version_update`;--> statement-breakpoint
DROP TRIGGER `archive_revision_version_delete`;--> statement-breakpoint
DROP TRIGGER `archive_revision_vendor_insert`;--> statement-breakpoint
DROP TRIGGER `archive_revision_vendor_update`;--> statement-breakpoint
DROP TRIGGER `archive_revision_vendor_delete`;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_insert` AFTER INSERT ON `incident_versions` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = NEW.`vendor_id`), (SELECT `provider_id` FROM `incidents` WHERE `id` = NEW.`incident_id`));
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_update` AFTER UPDATE ON `incident_versions` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`) SELECT (SELECT `slug` FROM `vendors` WHERE `id` = OLD.`vendor_id`), (SELECT `provider_id` FROM `incidents` WHERE `id` = OLD.`incident_id`) WHERE OLD.`incident_id` IS NOT NEW.`incident_id`;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = NEW.`vendor_id`), (SELECT `provider_id` FROM `incidents` WHERE `id` = NEW.`incident_id`));
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_delete` AFTER DELETE ON `incident_versions` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = OLD.`vendor_id`), (SELECT `provider_id` FROM `incidents` WHERE `id` = OLD.`incident_id`));
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_vendor_insert` AFTER INSERT ON `vendors` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`) VALUES (NEW.`slug`, NULL);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_vendor_update` AFTER UPDATE OF `slug`, `name`, `url`, `enabled` ON `vendors` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`) SELECT OLD.`slug`, NULL WHERE OLD.`slug` IS NOT NEW.`slug`;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`) VALUES (NEW.`slug`, NULL);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_vendor_delete` AFTER DELETE ON `vendors` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`) VALUES (OLD.`slug`, NULL);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;
