import type { BrowserContextOptions, Page } from "playwright";
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
  { name: "vendors", path: "/vendors" },
  { name: "vendor", path: "/vendors/acme" },
  { name: "vendor-changes", path: "/vendors/acme/changes" },
  { name: "incident", path: INCIDENT },
  { name: "change", path: `${INCIDENT}/versions/3` },
  { name: "postmortem-change", path: "/vendors/acme/incidents/acmehook0001/versions/3" },
  { name: "compare", path: `${INCIDENT}/compare?from=1&to=5` },
  { name: "hostile-incident", path: "/vendors/hostile/incidents/hostile00001" },
  { name: "hostile-change", path: "/vendors/hostile/incidents/hostile00001/versions/2" },
  { name: "search", path: "/search?q=error" },
  { name: "operator", path: "/operator" },
  { name: "not-found", path: "/vendors/nope", status: 404 },
  { name: "bad-request", path: "/?kind=bogus", status: 400 },
];

const WIDTHS = [390, 768, 1280] as const;
const SCHEMES = ["light", "dark"] as const;

/** Real history when the corpus is seeded: many versions, long titles, vendor HTML; found at run time since keys are the vendor's. */
const corpusPages: PageType[] = [];
beforeAll(async () => {
  if (!corpusAvailable) return;
  corpusPages.push({ name: "github", path: "/vendors/github" }, { name: "jira-changes", path: "/vendors/jira/changes" });
  const html = await (await fetch(`${app().baseUrl}/vendors/jira/changes`)).text();
  const incident = /href="(\/vendors\/jira\/incidents\/[^"/?#]+)/.exec(html)?.[1];
  if (incident) corpusPages.push({ name: "jira-incident", path: incident }, { name: "jira-change", path: `${incident}/versions/2` });
});

function contextFor(width: number, scheme: (typeof SCHEMES)[number]): BrowserContextOptions {
  const phone = width < 600;
  return { viewport: { width, height: phone ? 844 : 900 }, colorScheme: scheme, isMobile: phone, hasTouch: phone };
}

/** The operator page shows its tables only signed in: the shared page signs in once per context. */
const signedIn = new WeakSet<Page>();
async function signIn(page: Page): Promise<void> {
  if (signedIn.has(page)) return;
  await page.goto("/operator");
  await page.getByLabel("Operator token").fill(E2E_OPERATOR_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/operator$/);
  signedIn.add(page);
}

async function checkPage(page: Page, type: PageType, label: string): Promise<void> {
  if (type.name === "operator") await signIn(page);
  await app().visit(page, type.path, `${label}-${type.name}`, type.status ?? 200);
  const overflow = await horizontalOverflow(page);
  const violations = await findSeriousViolations(page);
  expect({ overflow: Math.max(0, overflow), violations }, `${type.path} at ${label}`).toEqual({ overflow: 0, violations: [] });
}

for (const scheme of SCHEMES) {
  for (const width of WIDTHS) {
    const label = `${width}-${scheme}`;
    describe(`at ${width} px in the ${scheme} scheme`, () => {
      it.each(PAGE_TYPES.map((type) => [type.name, type] as const))(
        "%s is no wider than the screen and axe-core finds no serious or critical violation",
        async (_name, type) => {
          await checkPage(await app().page(contextFor(width, scheme)), type, label);
        },
      );

      it.runIf(corpusAvailable)("pages over real corpus history are no wider than the screen and pass axe-core", async () => {
        expect(corpusPages.length, "the corpus pages were found").toBeGreaterThanOrEqual(3);
        const page = await app().page(contextFor(width, scheme));
        const failures: string[] = [];
        for (const type of corpusPages) {
          try {
            await checkPage(page, type, label);
          } catch (error) {
            failures.push(error instanceof Error ? error.message : String(error));
          }
        }
        expect(failures).toEqual([]);
      });
    });
  }
}
