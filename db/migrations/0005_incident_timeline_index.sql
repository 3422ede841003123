-- A vendor's incidents newest first: by start, or by when Redline first saw those without one.
CREATE INDEX `incidents_vendor_timeline` ON `incidents` (`vendor_id`, coalesce(`started_at`, `first_seen_at`));
