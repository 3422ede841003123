ALTER TABLE `archive_changes` ADD `kinds` text;--> statement-breakpoint
DROP TRIGGER `archive_revision_version_insert`;--> statement-breakpoint
DROP TRIGGER `archive_revision_version_update`;--> statement-breakpoint
DROP TRIGGER `archive_revision_version_delete`;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_insert` AFTER INSERT ON `incident_versions` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = NEW.`vendor_id`), (SELECT `provider_id` FROM `incidents` WHERE `id` = NEW.`incident_id`), NEW.`kinds`);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_update` AFTER UPDATE ON `incident_versions` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) SELECT (SELECT `slug` FROM `vendors` WHERE `id` = OLD.`vendor_id`), (SELECT `provider_id` FROM `incidents` WHERE `id` = OLD.`incident_id`), OLD.`kinds` WHERE OLD.`incident_id` IS NOT NEW.`incident_id` OR OLD.`kinds` IS NOT NEW.`kinds`;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = NEW.`vendor_id`), (SELECT `provider_id` FROM `incidents` WHERE `id` = NEW.`incident_id`), NEW.`kinds`);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_version_delete` AFTER DELETE ON `incident_versions` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = OLD.`vendor_id`), (SELECT `provider_id` FROM `incidents` WHERE `id` = OLD.`incident_id`), OLD.`kinds`);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;
