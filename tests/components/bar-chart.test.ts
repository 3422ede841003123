import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BarChart, labelTiers } from "@/components/bar-chart";

describe("the bar chart's month labels", () => {
  it("shows every month of a year from the widest tier, and the first month at every width", () => {
    const tiers = labelTiers(12);
    expect(tiers.every((t) => t !== null)).toBe(true);
    expect(tiers[0]).toBe(0);
  });

  it("keeps a label shown at one width shown at every wider one, with evenly spaced labels per tier", () => {
    for (const count of [1, 7, 14, 25, 62, 240]) {
      const tiers = labelTiers(count);
      for (let tier = 0; tier <= 6; tier += 1) {
        const shown = tiers.flatMap((t, i) => (t !== null && t <= tier ? [i] : []));
        expect(shown[0], `${count} months, tier ${tier}`).toBe(0);
        const gaps = new Set(shown.slice(1).map((i, n) => i - (shown[n] ?? 0)));
        expect(gaps.size, `${count} months, tier ${tier}: gaps ${[...gaps].join(",")}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it("labels fewer months on a narrow chart than on a wide one when there are many", () => {
    const tiers = labelTiers(62);
    const shownAt = (tier: number) => tiers.filter((t) => t !== null && t <= tier).length;
    expect(shownAt(0)).toBeLessThan(shownAt(6));
    expect(shownAt(0)).toBeGreaterThanOrEqual(2);
  });

  it("draws in percentages with the tier of each label as its class, and escapes vendor text", () => {
    const html = renderToStaticMarkup(createElement(BarChart, { label: "A <b> incidents", data: [{ label: "2026-01", value: 2 }, { label: "2026-02", value: 0 }] }));
    expect(html).toContain('<rect x="7.5%" width="35%" y="6%" height="76%" class="bar">');
    expect(html).toContain('class="tick tick-month from-0">2026-01</text>');
    expect(html).toContain('aria-label="A &lt;b&gt; incidents: 2026-01 2, 2026-02 0"');
  });
});
