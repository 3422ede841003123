-- Full-text search over each incident's current title, update texts and postmortem; rowid = incidents.id.
CREATE VIRTUAL TABLE `incident_search` USING fts5(title, updates, postmortem, tokenize = 'porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `incidents_search_delete` AFTER DELETE ON `incidents` BEGIN DELETE FROM `incident_search` WHERE rowid = old.id; END;
--> statement-breakpoint
INSERT INTO `incident_search` (rowid, title, updates, postmortem)
SELECT i.id,
  json_extract(v.snapshot, '$.incident.title'),
  coalesce((SELECT group_concat(json_extract(u.value, '$.body'), char(10)) FROM json_each(v.snapshot, '$.incident.updates') u), ''),
  coalesce(json_extract(v.snapshot, '$.incident.postmortem.body'), '')
FROM `incidents` i JOIN `incident_versions` v ON v.incident_id = i.id AND v.seq = i.version_count;
--> statement-breakpoint
INSERT OR IGNORE INTO `incident_components` (incident_id, vendor_id, component_id, name)
SELECT i.id, i.vendor_id, json_extract(c.value, '$.id'), json_extract(c.value, '$.name')
FROM `incidents` i JOIN `incident_versions` v ON v.incident_id = i.id AND v.seq = i.version_count, json_each(v.snapshot, '$.incident.components') c;
--> statement-breakpoint
UPDATE `incidents` SET postmortem_at = coalesce(
  (SELECT min(k.observed_at) FROM `version_kinds` k JOIN `incident_versions` v ON v.id = k.version_id WHERE v.incident_id = incidents.id AND k.kind = 'postmortem-published'),
  (SELECT v.observed_at FROM `incident_versions` v WHERE v.incident_id = incidents.id AND v.seq = 1 AND json_extract(v.snapshot, '$.incident.postmortem') IS NOT NULL)
);
--> statement-breakpoint
UPDATE `incidents` SET edits_after_resolution = (
  SELECT count(*) FROM `incident_versions` v
  WHERE v.incident_id = incidents.id AND incidents.resolved_at IS NOT NULL AND v.observed_at > incidents.resolved_at
    AND EXISTS (SELECT 1 FROM `version_kinds` k WHERE k.version_id = v.id AND k.kind IN
      ('impact-downgraded', 'impact-escalated', 'update-edited', 'update-removed', 'update-backdated', 'timing-changed', 'title-changed', 'postmortem-edited'))
);
