import type { Page } from "playwright";
import { beforeAll, describe, expect, it } from "vitest";
import { E2E_OPERATOR_TOKEN } from "@/tests/e2e/support/app-server";
import { findSeriousViolations } from "@/tests/e2e/support/axe";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";
import { horizontalOverflow } from "@/tests/e2e/support/page-checks";
import { corpusAvailable } from "@/tests/support/corpus-location";

const app = startE2eApp("design");

interface PageType {
  name: string;
  path: string;
  status?: number;
}

const INCIDENT = "/vendors/acme/incidents/acmeapi00001";
/** Every page type a reader meets (feeds and exports are not pages), over fixtures with long text, a postmortem and hostile markup. */
const PAGE_TYPES: readonly PageType[] = [
  { name: "home", path: "/" },
  { name: "home-quiet-degradations", path: "/?show=degradations" },
  { name: "vendors", path: "/vendors" },
  { name: "vendor", path: "/vendors/acme" },
  { name: "vendor-changes", path: "/vendors/acme/changes" },
  { name: "vendor-status", path: "/vendors/acme/status?at=2026-03-02T10:30:00Z" },
  { name: "incident", path: INCIDENT },
  { name: "change", path: `${INCIDENT}/versions/3` },
  { name: "postmortem-change", path: "/vendors/acme/incidents/acmehook0001/versions/3" },
  { name: "rewritten-postmortem-change", path: "/vendors/longform/incidents/lfdatabase01/versions/2" },
  { name: "compare", path: `${INCIDENT}/compare?from=1&to=5` },
  { name: "vendor-comparison", path: "/compare?vendors=acme,hostile" },
  { name: "hostile-incident", path: "/vendors/hostile/incidents/hostile00001" },
  { name: "hostile-change", path: "/vendors/hostile/incidents/hostile00001/versions/2" },
  { name: "component", path: "/vendors/relay/components/rlyact000001?since=2026-03-09&until=2026-03-09" },
  { name: "search", path: "/search?q=error" },
  { name: "operator", path: "/operator" },
  { name: "not-found", path: "/vendors/nope", status: 404 },
  { name: "bad-request", path: "/?kind=bogus", status: 400 },
];

const SCHEMES = ["light", "dark"] as const;
/** The phone is a touch screen whose page lays out at its own width; the tablet and desktop widths share one page, resized. */
const PHONE = { width: 390, height: 844 };
const WIDER = [
  { width: 768, height: 900 },
  { width: 1280, height: 900 },
] as const;

/**
 * Pages opened once and checked at each width and scheme in turn: media queries follow a resize
 * and an emulated scheme as they follow a new page, and the build's scripts stay cached. Two
 * lanes let one page render on the server while the other is measured.
 */
interface Lane {
  phone: Page;
  wider: Page;
}
const LANES = 2;
const idle: Lane[] = [];
const waiting: Array<(lane: Lane) => void> = [];

async function withLane<T>(fn: (lane: Lane) => Promise<T>): Promise<T> {
  const lane = idle.pop() ?? (await new Promise<Lane>((resolve) => waiting.push(resolve)));
  try {
    return await fn(lane);
  } finally {
    const next = waiting.shift();
    if (next) next(lane);
    else idle.push(lane);
  }
}

beforeAll(async () => {
  for (let i = 0; i < LANES; i++) {
    // app().page keeps one page per set of options for the whole file: a header naming the lane keeps the lanes apart.
    const lane = { extraHTTPHeaders: { "x-e2e-lane": String(i) } };
    const phone = await app().page({ ...lane, viewport: PHONE, isMobile: true, hasTouch: true });
    const wider = await app().page({ ...lane, viewport: WIDER[0] });
    idle.push({ phone, wider });
  }
});

/** The operator page shows its tables only signed in: each page signs in once. */
const signedIn = new WeakSet<Page>();
async function signIn(page: Page): Promise<void> {
  if (signedIn.has(page)) return;
  await page.goto("/operator");
  await page.getByLabel("Operator token").fill(E2E_OPERATOR_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/operator$/);
  signedIn.add(page);
}

/** What is wrong with the page as it is laid out now, at this width and scheme: overflow, axe-core's findings; a screenshot either way. */
async function problemsAt(page: Page, type: PageType, width: number, scheme: (typeof SCHEMES)[number]): Promise<string[]> {
  await page.emulateMedia({ colorScheme: scheme });
  const overflow = Math.max(0, await horizontalOverflow(page));
  const violations = await findSeriousViolations(page);
  await app().screenshot(page, `${width}-${scheme}-${type.name}`);
  const problems = overflow > 0 ? [`${type.path} at ${width}-${scheme}: ${overflow} px wider than the screen`] : [];
  return [...problems, ...violations.map((v) => `${type.path} at ${width}-${scheme}: ${v.impact} ${v.rule}: ${v.help} (${v.nodes.join("; ")})`)];
}

async function open(page: Page, type: PageType): Promise<void> {
  if (type.name === "operator") await signIn(page);
  const response = await page.goto(type.path);
  expect(response?.status(), type.path).toBe(type.status ?? 200);
}

/** Every width and scheme of one page type, phone first. */
async function checkEveryWidth(type: PageType, lane: Lane): Promise<string[]> {
  const problems: string[] = [];
  await open(lane.phone, type);
  for (const scheme of SCHEMES) problems.push(...(await problemsAt(lane.phone, type, PHONE.width, scheme)));
  await lane.wider.setViewportSize(WIDER[0]);
  await open(lane.wider, type);
  for (const size of WIDER) {
    await lane.wider.setViewportSize(size);
    for (const scheme of SCHEMES) problems.push(...(await problemsAt(lane.wider, type, size.width, scheme)));
  }
  return problems;
}

/** Real history when the corpus is seeded: many versions, long titles, vendor HTML; found at run time since keys are the vendor's. */
const corpusPages: PageType[] = [];
beforeAll(async () => {
  if (!corpusAvailable) return;
  corpusPages.push({ name: "github", path: "/vendors/github" }, { name: "jira-changes", path: "/vendors/jira/changes" });
  const html = await (await fetch(`${app().baseUrl}/vendors/jira/changes`)).text();
  const incident = /href="(\/vendors\/jira\/incidents\/[^"/?#]+)/.exec(html)?.[1];
  if (incident) corpusPages.push({ name: "jira-incident", path: incident }, { name: "jira-change", path: `${incident}/versions/2` });
});

describe("every page type at 390, 768 and 1,280 px, in the light and the dark scheme", () => {
  it.concurrent.each(PAGE_TYPES.map((type) => [type.name, type] as const))(
    "%s is no wider than the screen and axe-core finds no serious or critical violation",
    async (_name, type) => {
      expect(await withLane((lane) => checkEveryWidth(type, lane))).toEqual([]);
    },
  );

  it.runIf(corpusAvailable).concurrent("pages over real corpus history are no wider than the screen and pass axe-core", async () => {
    expect(corpusPages.length, "the corpus pages were found").toBeGreaterThanOrEqual(3);
    const problems = await Promise.all(corpusPages.map((type) => withLane((lane) => checkEveryWidth(type, lane))));
    expect(problems.flat()).toEqual([]);
  });
});
