import fs from "node:fs";
import type { Page } from "playwright";

/** axe-core's browser bundle, read once; evaluated through the DevTools protocol, so the site's CSP does not block it. */
let source: string | undefined;
function axeSource(): string {
  source ??= fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  return source;
}

export interface AxeViolation {
  rule: string;
  impact: string;
  help: string;
  /** The first few offending elements, as CSS selectors with a hint of why. */
  nodes: string[];
}

const BLOCKING = new Set(["serious", "critical"]);
const NODES_SHOWN = 5;

/** Every serious or critical violation axe-core finds on the page as it is now. */
export async function findSeriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object");
  if (!loaded) await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact?: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ rule: v.id, impact: v.impact ?? "", help: v.help, nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${(n.failureSummary ?? "").replace(/\s+/g, " ").slice(0, 160)}`) }));
  });
  return violations.filter((v) => BLOCKING.has(v.impact)).map((v) => ({ ...v, nodes: v.nodes.slice(0, NODES_SHOWN) }));
}
