import { describe, expect, it } from "vitest";
import { CHANGE_KIND_NAMES } from "@/lib/change-kinds";
import { homeSelection, isQuietEdit, openStateOf, QUIET_EDIT_KINDS } from "@/lib/quiet-edits";

describe("quiet edits", () => {
  it("counts as a quiet edit any version that rewrote, removed or backdated an update, lowered the impact, moved times, touched the postmortem or deleted the incident", () => {
    for (const kind of ["update-edited", "update-removed", "update-backdated", "impact-downgraded", "timing-changed", "postmortem-published", "postmortem-edited", "incident-deleted"] as const) {
      expect(isQuietEdit([kind]), kind).toBe(true);
    }
    expect(isQuietEdit(["update-posted", "update-edited"])).toBe(true);
  });

  it("does not count new incidents, new updates, resolutions, escalations or the feed's own churn", () => {
    for (const kind of ["incident-new", "update-posted", "incident-resolved", "status-changed", "impact-escalated", "incident-left-feed", "components-changed"] as const) {
      expect(isQuietEdit([kind]), kind).toBe(false);
    }
    expect(isQuietEdit([])).toBe(false);
  });

  it("lists only kinds that exist", () => {
    for (const kind of QUIET_EDIT_KINDS) expect(CHANGE_KIND_NAMES).toContain(kind);
  });

  it("shows the quiet edits when nothing is asked, a tab's kinds when one is, and kinds picked in the filter over any tab", () => {
    expect(homeSelection({})).toEqual({ tab: "quiet", kinds: QUIET_EDIT_KINDS });
    expect(homeSelection({ show: "new" })).toEqual({ tab: "new", kinds: ["incident-new"] });
    expect(homeSelection({ show: "all" })).toEqual({ tab: "all", kinds: undefined });
    expect(homeSelection({ show: "new", kind: ["title-changed"] })).toEqual({ tab: "custom", kinds: ["title-changed"] });
    expect(homeSelection({ kind: [] })).toEqual({ tab: "quiet", kinds: QUIET_EDIT_KINDS });
  });

  it("reads a status as open or resolved, and says nothing when none was stated", () => {
    expect(openStateOf("investigating")).toBe("open");
    expect(openStateOf("resolved")).toBe("resolved");
    expect(openStateOf("completed")).toBe("resolved");
    expect(openStateOf(null)).toBeNull();
  });
});
