import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { WhatChanged } from "@/components/change-diff";
import type { Change } from "@/lib/change";
import { formatUtcSecond } from "@/lib/format";
import { makeUpdate } from "@/tests/support/incidents";

const render = (changes: Change[]) => renderToStaticMarkup(createElement(WhatChanged, { changes }));
const count = (html: string, text: string) => html.split(text).length - 1;

describe("an update's change on the change page", () => {
  it("says a posted update's status and time once, in its heading", () => {
    const posted = makeUpdate({ id: "u2", status: "monitoring", body: "A fix is deployed." });
    const html = render([{ field: "update", kind: "added", updateId: "u2", before: null, after: posted }]);
    const heading = `Monitoring, ${formatUtcSecond(posted.displayAt)}`;
    expect(html).toMatch(/<h3>Update posted<span class="muted"> \(Monitoring, [^)]+\)<\/span><\/h3>/);
    expect(count(html, heading)).toBe(1);
    expect(html).toContain("A fix is deployed.");
  });

  it("says a removed update's status and time once", () => {
    const removed = makeUpdate({ status: "investigating" });
    const html = render([{ field: "update", kind: "removed", updateId: removed.id, before: removed, after: null }]);
    expect(count(html, `Investigating, ${formatUtcSecond(removed.displayAt)}`)).toBe(1);
  });

  it("shows a side's own status and time only where it differs from the heading", () => {
    const before = makeUpdate({ status: "investigating", body: "We are looking into errors on the API." });
    const after = { ...before, status: "identified", body: "The cause is a bad deploy of the API gateway, rolled back now." };
    const html = render([{ field: "update", kind: "changed", updateId: before.id, before, after }]);
    const at = formatUtcSecond(before.displayAt);
    expect(count(html, `Identified, ${at}`)).toBe(2);
    expect(count(html, `Investigating, ${at}`)).toBe(2);
    // Once in the heading and once in the moved line (old → new); the whole-text sides add only the old one.
    expect(html).toMatch(/<h3>Update edited<span class="muted"> \(Identified, /);
    expect(html).toMatch(/<del>Investigating, [^<]+<\/del> → <ins>Identified, /);
  });
});
