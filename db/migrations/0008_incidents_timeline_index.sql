-- Incidents across vendors newest first (the API's incident list): by start, or by when Redline first saw those without one.
CREATE INDEX `incidents_timeline` ON `incidents` (coalesce(`started_at`, `first_seen_at`));
