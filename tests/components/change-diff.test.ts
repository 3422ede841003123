import fs from "node:fs";
import path from "node:path";
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

describe("an edited text's margin", () => {
  const edit = (before: string, after: string) => {
    const update = makeUpdate({ body: before });
    return render([{ field: "update", kind: "changed", updateId: update.id, before: update, after: { ...update, body: after } }]);
  };
  const first = "We found the cause: a bad configuration push to the widget servers in three regions.";
  const second = "We rolled the push back and error rates are back to normal in every region now.";

  it("marks a line of inserted words only as inserted, and one of removed words only as removed", () => {
    expect(edit(`${first}\n\n${second}`, `${first}\n\nA canary stage now checks every push.\n\n${second}`)).toMatch(/<p class="diff-line diff-changed diff-added"><ins>A canary stage/);
    expect(edit(`${first}\n\nA canary stage now checks every push.\n\n${second}`, `${first}\n\n${second}`)).toMatch(/<p class="diff-line diff-changed diff-removed"><del>A canary stage/);
  });

  it("marks a line with words both removed and inserted as edited", () => {
    const html = edit(`${first}\n\n${second}`, `${first}\n\n${second.replace("rolled the push back", "reverted the push")}`);
    expect(html).toMatch(/<p class="diff-line diff-changed diff-edited">[^]*<del>[^]*<ins>/);
    expect(html).not.toMatch(/diff-(added|removed)/);
  });

  it("colours inserted lines' margin green and removed lines' red, as their words are", () => {
    const css = fs.readFileSync(path.join(__dirname, "..", "..", "app", "globals.css"), "utf8");
    const rule = (selector: string) => css.match(new RegExp(`^${selector.replace(/\./g, "\\.")} \\{([^}]*)\\}`, "m"))?.[1] ?? "";
    expect(rule(".diff-line.diff-added")).toContain("border-left-color: var(--ins-line)");
    expect(rule(".diff-line.diff-removed")).toContain("border-left-color: var(--del-line)");
    expect(rule(".diff-line.diff-changed")).not.toMatch(/--(accent|del-line|danger)/);
  });
});
