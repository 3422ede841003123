import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, type BrowserContextOptions, type CDPSession, chromium, type Page, type Response } from "playwright";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type AppServer, startAppServer } from "@/tests/e2e/support/app-server";
import { ensureBuild } from "@/tests/e2e/support/build-app";
import { runRedlineOk } from "@/tests/e2e/support/commands";
import { copyDatabase, copyPostgresDatabase, ensurePostgresSeed, ensureSeedDatabase, SCREENSHOT_DIR } from "@/tests/e2e/support/seed-database";
import { postgresAdminUrl } from "@/tests/support/postgres";
import { dropPostgresDatabase } from "@/tests/support/postgres-databases";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

const CHROMIUM = "/usr/bin/chromium";
const MAX_SCREENSHOT_HEIGHT = 3_000;
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];
/**
 * A guard against a hung start, not a budget: it covers building the app (a minute on an idle
 * 2-core machine, several beside CPU-heavy neighbours), seeding and waiting for either under
 * another file's lock; every step inside waits on what it observes, with no deadline of its own.
 */
const START_GUARD_MS = 20 * 60_000;

/** Chromium as the e2e tests run it, with a fresh temporary profile. */
export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`e2e: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 0 });
}

export interface E2eApp {
  baseUrl: string;
  browser: Browser;
  /**
   * The file's page for these context options, kept across its tests so scripts and styles stay
   * cached (a fresh context costs a second per test on a small machine).
   */
  page(options?: BrowserContextOptions): Promise<Page>;
  /** A page in a fresh browser context, closed after the test. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Opens a path, expects its status, and saves a full-page screenshot as test-results/e2e/<file label>-<name>.png. */
  visit(page: Page, pathname: string, name: string, status?: number): Promise<Response>;
  screenshot(page: Page, name: string): Promise<void>;
  /** The CLI against this file's database, stdout as bytes. */
  redline(args: readonly string[]): Promise<Buffer>;
  /**
   * This file's database, on the one the suite runs on (a SQLite file, or a PostgreSQL URL), for
   * watching what a command writes while it runs.
   */
  database: string;
}

/**
 * The app as a person meets it, for one e2e test file: the build and the seeded database are
 * shared by the run (made once, under locks; on PostgreSQL, copied there once); the database copy, the `next start` server and
 * Chromium (launched with a fresh temporary profile) are this file's own. After each test, every
 * request the pages made must have stayed on the server, and no page may have thrown.
 */
export function startE2eApp(label: string, options: { env?: Record<string, string> } = {}): () => E2eApp {
  let app: E2eApp | undefined;
  let server: AppServer | undefined;
  let browser: Browser | undefined;
  let workDir: string | undefined;
  let postgresCopy: string | undefined;
  const contexts: BrowserContext[] = [];
  const shared = new Map<string, Promise<Page>>();
  const requests: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`e2e: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
    const [seeded] = await Promise.all([ensureSeedDatabase(), ensureBuild()]);
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), `redline-e2e-${label}-`));
    const database =
      testDatabaseDialect === "postgres" ? (postgresCopy = await copyPostgresDatabase(await ensurePostgresSeed(seeded), label)) : copyDatabase(seeded, workDir);
    server = await startAppServer(database, path.join(SCREENSHOT_DIR, `${label}-next-start.log`), options.env);
    browser = await launchChromium();
    const baseUrl = server.baseUrl;
    const ownBrowser = browser;
    const sessions = new WeakMap<Page, Promise<CDPSession>>();
    const screenshot = async (page: Page, name: string) => {
      const { width, height } = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
      // Capturing a very long page costs seconds; its top shows the layout as well. Chromium's
      // fast PNG encoder (bigger files, same pixels) halves what a full-page capture costs.
      let session = sessions.get(page);
      if (!session) sessions.set(page, (session = page.context().newCDPSession(page)));
      const clip = { x: 0, y: 0, width, height: Math.min(height, MAX_SCREENSHOT_HEIGHT), scale: 1 };
      const shot = await (await session).send("Page.captureScreenshot", { format: "png", optimizeForSpeed: true, captureBeyondViewport: true, clip });
      fs.writeFileSync(path.join(SCREENSHOT_DIR, `${label}-${name}.png`), Buffer.from(shot.data, "base64"));
    };
    const openPage = async (options: BrowserContextOptions) => {
      const context = await ownBrowser.newContext({ baseURL: baseUrl, ...options });
      context.setDefaultTimeout(30_000);
      context.on("request", (request) => requests.push(request.url()));
      const page = await context.newPage();
      page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
      return page;
    };
    app = {
      baseUrl,
      browser: ownBrowser,
      page(options = {}) {
        const key = JSON.stringify(options);
        const existing = shared.get(key);
        if (existing) return existing;
        const created = openPage(options);
        shared.set(key, created);
        return created;
      },
      async newPage(options = {}) {
        const page = await openPage(options);
        contexts.push(page.context());
        return page;
      },
      async visit(page, pathname, name, status = 200) {
        const response = await page.goto(pathname);
        if (!response) throw new Error(`e2e: no response for ${pathname}`);
        expect(response.status(), pathname).toBe(status);
        await screenshot(page, name);
        return response;
      },
      screenshot,
      redline: (args) => runRedlineOk([...args, "--db", database]),
      database,
    };
  }, START_GUARD_MS);

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    const offsite = requests.splice(0).filter((url) => !url.startsWith(`${app?.baseUrl ?? "?"}/`));
    const errors = pageErrors.splice(0);
    expect(offsite, "requests that left the app's own origin").toEqual([]);
    expect(errors, "script errors on the pages").toEqual([]);
  });

  afterAll(async () => {
    await Promise.all([...shared.values()].map(async (page) => (await page).context().close()));
    await browser?.close();
    await server?.stop();
    if (postgresCopy) await dropPostgresDatabase(postgresAdminUrl(), postgresCopy);
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  return () => {
    if (!app) throw new Error("e2e: the app did not start (see the beforeAll error)");
    return app;
  };
}
