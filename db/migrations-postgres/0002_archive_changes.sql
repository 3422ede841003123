-- The archive's revision and whom each change concerns, kept by triggers as SQLite's of migrations
-- 0007, 0023 and 0024 keep them: every version written or removed and every vendor change raises the
-- revision and names its vendor, incident and kinds; the newest 4,096 changes are kept.
INSERT INTO archive_revision (id, revision) VALUES (1, 0);
--> statement-breakpoint
CREATE FUNCTION redline_archive_vendor_change() RETURNS trigger
  LANGUAGE plpgsql
AS $$
DECLARE
  last_seq bigint;
BEGIN
  -- First: the row lock queues concurrent writers here until they commit, so changes commit in seq order.
  UPDATE archive_revision SET revision = revision + 1 WHERE id = 1;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO archive_changes (vendor_slug, provider_id) VALUES (OLD.slug, NULL) RETURNING seq INTO last_seq;
  ELSE
    IF TG_OP = 'UPDATE' THEN
      IF OLD.slug IS DISTINCT FROM NEW.slug THEN
        INSERT INTO archive_changes (vendor_slug, provider_id) VALUES (OLD.slug, NULL);
      END IF;
    END IF;
    INSERT INTO archive_changes (vendor_slug, provider_id) VALUES (NEW.slug, NULL) RETURNING seq INTO last_seq;
  END IF;
  DELETE FROM archive_changes WHERE seq <= last_seq - 4096;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION redline_archive_version_change() RETURNS trigger
  LANGUAGE plpgsql
AS $$
DECLARE
  last_seq bigint;
BEGIN
  UPDATE archive_revision SET revision = revision + 1 WHERE id = 1;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO archive_changes (vendor_slug, provider_id, kinds)
      VALUES ((SELECT slug FROM vendors WHERE id = OLD.vendor_id), (SELECT provider_id FROM incidents WHERE id = OLD.incident_id), OLD.kinds)
      RETURNING seq INTO last_seq;
  ELSE
    IF TG_OP = 'UPDATE' THEN
      IF OLD.incident_id IS DISTINCT FROM NEW.incident_id OR OLD.kinds IS DISTINCT FROM NEW.kinds THEN
        INSERT INTO archive_changes (vendor_slug, provider_id, kinds)
          VALUES ((SELECT slug FROM vendors WHERE id = OLD.vendor_id), (SELECT provider_id FROM incidents WHERE id = OLD.incident_id), OLD.kinds);
      END IF;
    END IF;
    INSERT INTO archive_changes (vendor_slug, provider_id, kinds)
      VALUES ((SELECT slug FROM vendors WHERE id = NEW.vendor_id), (SELECT provider_id FROM incidents WHERE id = NEW.incident_id), NEW.kinds)
      RETURNING seq INTO last_seq;
  END IF;
  DELETE FROM archive_changes WHERE seq <= last_seq - 4096;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER archive_revision_vendor_insert AFTER INSERT ON vendors FOR EACH ROW EXECUTE FUNCTION redline_archive_vendor_change();
--> statement-breakpoint
CREATE TRIGGER archive_revision_vendor_update AFTER UPDATE OF slug, name, url, enabled ON vendors FOR EACH ROW EXECUTE FUNCTION redline_archive_vendor_change();
--> statement-breakpoint
CREATE TRIGGER archive_revision_vendor_delete AFTER DELETE ON vendors FOR EACH ROW EXECUTE FUNCTION redline_archive_vendor_change();
--> statement-breakpoint
CREATE TRIGGER archive_revision_version_insert AFTER INSERT ON incident_versions FOR EACH ROW EXECUTE FUNCTION redline_archive_version_change();
--> statement-breakpoint
CREATE TRIGGER archive_revision_version_update AFTER UPDATE ON incident_versions FOR EACH ROW EXECUTE FUNCTION redline_archive_version_change();
--> statement-breakpoint
CREATE TRIGGER archive_revision_version_delete AFTER DELETE ON incident_versions FOR EACH ROW EXECUTE FUNCTION redline_archive_version_change();
