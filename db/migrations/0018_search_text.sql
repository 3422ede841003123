CREATE TABLE `incident_search_text` (
	`incident_id` integer PRIMARY KEY NOT NULL,
	`body` blob NOT NULL
);
--> statement-breakpoint
-- The index keeps no copy of its text: it reads incident_search_text through this view, decoded by
-- redline_search_field (registered on every connection, db/search-text.ts).
INSERT INTO `incident_search_text` (incident_id, body)
SELECT rowid, redline_search_pack(title, updates, postmortem) FROM `incident_search`;
--> statement-breakpoint
DROP TRIGGER `incidents_search_delete`;
--> statement-breakpoint
DROP TABLE `incident_search`;
--> statement-breakpoint
CREATE VIEW `incident_search_source` AS
SELECT incident_id,
  redline_search_field(body, 0) AS title,
  redline_search_field(body, 1) AS updates,
  redline_search_field(body, 2) AS postmortem
FROM `incident_search_text`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `incident_search` USING fts5(title, updates, postmortem,
  content = 'incident_search_source', content_rowid = 'incident_id', tokenize = 'porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `incident_search` (incident_search) VALUES ('rebuild');
--> statement-breakpoint
-- An external-content index must be told the old text before it changes, or it is silently corrupted.
CREATE TRIGGER `incident_search_text_insert` AFTER INSERT ON `incident_search_text` BEGIN
  INSERT INTO `incident_search` (rowid, title, updates, postmortem)
  VALUES (new.incident_id, redline_search_field(new.body, 0), redline_search_field(new.body, 1), redline_search_field(new.body, 2));
END;
--> statement-breakpoint
CREATE TRIGGER `incident_search_text_delete` AFTER DELETE ON `incident_search_text` BEGIN
  INSERT INTO `incident_search` (incident_search, rowid, title, updates, postmortem)
  VALUES ('delete', old.incident_id, redline_search_field(old.body, 0), redline_search_field(old.body, 1), redline_search_field(old.body, 2));
END;
--> statement-breakpoint
CREATE TRIGGER `incident_search_text_update` AFTER UPDATE ON `incident_search_text` BEGIN
  INSERT INTO `incident_search` (incident_search, rowid, title, updates, postmortem)
  VALUES ('delete', old.incident_id, redline_search_field(old.body, 0), redline_search_field(old.body, 1), redline_search_field(old.body, 2));
  INSERT INTO `incident_search` (rowid, title, updates, postmortem)
  VALUES (new.incident_id, redline_search_field(new.body, 0), redline_search_field(new.body, 1), redline_search_field(new.body, 2));
END;
--> statement-breakpoint
CREATE TRIGGER `incidents_search_delete` AFTER DELETE ON `incidents` BEGIN DELETE FROM `incident_search_text` WHERE incident_id = old.id; END;
