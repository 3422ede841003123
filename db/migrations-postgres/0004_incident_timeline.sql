-- Written by hand for SQLite too (its migrations 0005 and 0008), outside the Drizzle schema: incidents
-- newest first, by start or by when Redline first saw those without one, of a vendor and across vendors.
CREATE INDEX incidents_vendor_timeline ON incidents (vendor_id, coalesce(started_at, first_seen_at));
--> statement-breakpoint
CREATE INDEX incidents_timeline ON incidents (coalesce(started_at, first_seen_at));
