CREATE VIRTUAL TABLE `version_search` USING fts5(removed, tokenize = 'porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `versions_search_delete` AFTER DELETE ON `incident_versions` BEGIN DELETE FROM `version_search` WHERE rowid = old.id; END;
--> statement-breakpoint
CREATE TABLE `version_search_backlog` (`incident_id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO `version_search_backlog` (`incident_id`) SELECT `id` FROM `incidents` WHERE `version_count` > 1;
