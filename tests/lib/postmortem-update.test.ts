import { describe, expect, it } from "vitest";
import type { Change } from "@/lib/change";
import { carriesPostmortem, postmortemUpdateChange } from "@/lib/postmortem-update";
import { makeUpdate } from "@/tests/support/incidents";

const report = "# Incident Report\n\nA bad configuration push.";
const postmortem = { body: report, publishedAt: "2026-03-05T09:00:00.000Z" };
const reportUpdate = makeUpdate({ id: "u9", status: "available", body: report });

describe("a postmortem posted as an update too", () => {
  it("is the update whose text is the postmortem's, posted, edited or taken down with it", () => {
    const posted: Change[] = [{ field: "update", kind: "added", updateId: "u9", before: null, after: reportUpdate }, { field: "postmortem", kind: "added", before: null, after: postmortem }];
    expect(postmortemUpdateChange(posted)).toBe(posted[0]);
    const edited = { ...postmortem, body: `${report}\n\nMore.` };
    const editing: Change[] = [
      { field: "postmortem", kind: "changed", before: postmortem, after: edited },
      { field: "update", kind: "changed", updateId: "u9", before: reportUpdate, after: { ...reportUpdate, body: edited.body } },
    ];
    expect(postmortemUpdateChange(editing)).toBe(editing[1]);
    const removed: Change[] = [{ field: "update", kind: "removed", updateId: "u9", before: reportUpdate, after: null }, { field: "postmortem", kind: "removed", before: postmortem, after: null }];
    expect(postmortemUpdateChange(removed)).toBe(removed[0]);
  });

  it("is no update of other text, even one posted with the postmortem (a Statuspage resolution)", () => {
    const resolved = makeUpdate({ id: "u3", status: "resolved", body: "This incident has been resolved." });
    expect(postmortemUpdateChange([{ field: "update", kind: "added", updateId: "u3", before: null, after: resolved }, { field: "postmortem", kind: "added", before: null, after: postmortem }])).toBeNull();
    expect(postmortemUpdateChange([{ field: "update", kind: "added", updateId: "u9", before: null, after: reportUpdate }])).toBeNull();
    expect(carriesPostmortem(resolved, postmortem)).toBe(false);
    expect(carriesPostmortem(reportUpdate, postmortem)).toBe(true);
    expect(carriesPostmortem(reportUpdate, null)).toBe(false);
  });
});
