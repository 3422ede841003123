import { sql } from "drizzle-orm";
import type { defineArchiveTables } from "@/db/schema/archive-tables";
import type { ColumnHelpers } from "@/db/schema/columns";

/**
 * The status page's component grid over time: each component a vendor's sources state or name,
 * each of its states as a run from the capture that first showed it to the one that first showed
 * another (or no longer listed it), and the stretches of quiet degradation. Derived from the
 * captures like the incidents, so a late capture or a rebuild rewinds and replays them.
 */
export function defineComponentTables(h: ColumnHelpers, { vendors, captures }: Pick<ReturnType<typeof defineArchiveTables>, "vendors" | "captures">) {
  const components = h.table(
    "components",
    {
      id: h.id("id"),
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      /** The vendor's id for it (Statuspage's component id, a Google Cloud product id, a Slack service name). */
      componentKey: h.text("component_key").notNull(),
    },
    (t) => [h.uniqueIndex("components_identity").on(t.vendorId, t.componentKey)],
  );

  /** One row per run of one state: 1,000 polls that find the component unchanged add nothing. */
  const componentStates = h.table(
    "component_states",
    {
      id: h.id("id"),
      componentId: h.integer("component_id").notNull().references(() => components.id, { onDelete: "cascade" }),
      vendorId: h.integer("vendor_id").notNull(),
      name: h.text("name").notNull(),
      /** The vendor's id of the group it sits in. */
      groupKey: h.text("group_key"),
      isGroup: h.boolean("is_group").notNull(),
      /** In Redline's vocabulary (lib/components/component-status.ts). */
      status: h.text("status").notNull(),
      /** The vendor's own word. */
      vendorStatus: h.text("vendor_status").notNull(),
      inferred: h.boolean("inferred").notNull(),
      source: h.text("source").notNull(),
      /** When the state began: this run's start, or an earlier run's when only the name or group changed since. */
      stateSince: h.text("state_since").notNull(),
      /** The vendor's own time of the change, where it states one. */
      vendorChangedAt: h.text("vendor_changed_at"),
      /** When Redline first observed the state, and in which capture. */
      fromAt: h.text("from_at").notNull(),
      fromCaptureId: h.integer("from_capture_id").notNull().references(() => captures.id),
      /** When a capture first showed another state or no longer listed it; null while current. */
      untilAt: h.text("until_at"),
      untilCaptureId: h.integer("until_capture_id").references(() => captures.id),
    },
    (t) => [
      h.index("component_states_component").on(t.componentId, t.fromAt),
      h.index("component_states_vendor").on(t.vendorId, t.fromAt),
      // Where a component stopped being listed: a change of the page as much as a new state.
      h.index("component_states_vendor_until").on(t.vendorId, t.untilAt).where(sql`${t.untilAt} IS NOT NULL`),
      h.index("component_states_open").on(t.vendorId).where(sql`${t.untilAt} IS NULL`),
      h.index("component_states_from_capture").on(t.fromCaptureId),
      h.index("component_states_until_capture").on(t.untilCaptureId).where(sql`${t.untilCaptureId} IS NOT NULL`),
    ],
  );

  /** Stretches of captures in which components were degraded or out while the vendor had no incident open. */
  const quietDegradations = h.table(
    "quiet_degradations",
    {
      id: h.id("id"),
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      fromAt: h.text("from_at").notNull(),
      fromCaptureId: h.integer("from_capture_id").notNull().references(() => captures.id),
      untilAt: h.text("until_at"),
      untilCaptureId: h.integer("until_capture_id").references(() => captures.id),
      /** The vendor's ids of every component degraded or out during the stretch, as a sorted JSON list. */
      components: h.jsonText("components").notNull(),
    },
    (t) => [
      h.index("quiet_degradations_vendor").on(t.vendorId, t.fromAt),
      h.index("quiet_degradations_time").on(t.fromAt),
      h.index("quiet_degradations_from_capture").on(t.fromCaptureId),
      h.index("quiet_degradations_until_capture").on(t.untilCaptureId).where(sql`${t.untilCaptureId} IS NOT NULL`),
    ],
  );

  return { components, componentStates, quietDegradations };
}
