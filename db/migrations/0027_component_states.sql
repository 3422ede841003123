CREATE TABLE `component_states` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`component_id` integer NOT NULL,
	`vendor_id` integer NOT NULL,
	`name` text NOT NULL,
	`group_key` text,
	`is_group` integer NOT NULL,
	`status` text NOT NULL,
	`vendor_status` text NOT NULL,
	`inferred` integer NOT NULL,
	`source` text NOT NULL,
	`state_since` text NOT NULL,
	`vendor_changed_at` text,
	`from_at` text NOT NULL,
	`from_capture_id` integer NOT NULL,
	`until_at` text,
	`until_capture_id` integer,
	FOREIGN KEY (`component_id`) REFERENCES `components`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`from_capture_id`) REFERENCES `captures`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`until_capture_id`) REFERENCES `captures`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `component_states_component` ON `component_states` (`component_id`,`from_at`);--> statement-breakpoint
CREATE INDEX `component_states_vendor` ON `component_states` (`vendor_id`,`from_at`);--> statement-breakpoint
CREATE INDEX `component_states_vendor_until` ON `component_states` (`vendor_id`,`until_at`) WHERE "component_states"."until_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `component_states_open` ON `component_states` (`vendor_id`) WHERE "component_states"."until_at" IS NULL;--> statement-breakpoint
CREATE INDEX `component_states_from_capture` ON `component_states` (`from_capture_id`);--> statement-breakpoint
CREATE INDEX `component_states_until_capture` ON `component_states` (`until_capture_id`) WHERE "component_states"."until_capture_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `components` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`vendor_id` integer NOT NULL,
	`component_key` text NOT NULL,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `components_identity` ON `components` (`vendor_id`,`component_key`);--> statement-breakpoint
CREATE TABLE `quiet_degradations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`vendor_id` integer NOT NULL,
	`from_at` text NOT NULL,
	`from_capture_id` integer NOT NULL,
	`until_at` text,
	`until_capture_id` integer,
	`components` text NOT NULL,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`from_capture_id`) REFERENCES `captures`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`until_capture_id`) REFERENCES `captures`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `quiet_degradations_vendor` ON `quiet_degradations` (`vendor_id`,`from_at`);--> statement-breakpoint
CREATE INDEX `quiet_degradations_time` ON `quiet_degradations` (`from_at`);--> statement-breakpoint
CREATE INDEX `quiet_degradations_from_capture` ON `quiet_degradations` (`from_capture_id`);--> statement-breakpoint
CREATE INDEX `quiet_degradations_until_capture` ON `quiet_degradations` (`until_capture_id`) WHERE "quiet_degradations"."until_capture_id" IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `archive_revision_component_states_insert` AFTER INSERT ON `component_states` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = NEW.`vendor_id`), NULL, NULL);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_component_states_update` AFTER UPDATE ON `component_states` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = NEW.`vendor_id`), NULL, NULL);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_component_states_delete` AFTER DELETE ON `component_states` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = OLD.`vendor_id`), NULL, NULL);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_quiet_degradations_insert` AFTER INSERT ON `quiet_degradations` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = NEW.`vendor_id`), NULL, NULL);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_quiet_degradations_update` AFTER UPDATE ON `quiet_degradations` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = NEW.`vendor_id`), NULL, NULL);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;--> statement-breakpoint
CREATE TRIGGER `archive_revision_quiet_degradations_delete` AFTER DELETE ON `quiet_degradations` BEGIN
  UPDATE `archive_revision` SET `revision` = `revision` + 1 WHERE `id` = 1;
  INSERT INTO `archive_changes` (`vendor_slug`, `provider_id`, `kinds`) VALUES ((SELECT `slug` FROM `vendors` WHERE `id` = OLD.`vendor_id`), NULL, NULL);
  DELETE FROM `archive_changes` WHERE `seq` <= last_insert_rowid() - 4096;
END;
