import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { NOTIFYING_KIND_NAMES } from "@/lib/change-kinds";
import { countRows, freshLocation } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FIXTURE = path.join(ROOT, "tests", "fixtures", "statuspage", "summary-maintenance-offset.json");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-subscriptions-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function redline(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [REDLINE_BUNDLE, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "0", ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A new archive on the suite's database, migrated and empty. */
async function emptyArchive(): Promise<string> {
  const location = await freshLocation(dir);
  await closeStore(await openStore(location));
  return location;
}

/** A new archive on the suite's database holding the vendors acme and github. */
async function archiveWithVendors(): Promise<string> {
  const db = await freshLocation(dir);
  for (const slug of ["acme", "github"]) {
    expect(redline(["vendors", "add", "--slug", slug, "--name", slug, "--platform", "statuspage", "--url", `https://${slug}.example.com`, "--db", db]).code).toBe(0);
  }
  return db;
}

async function rowsIn(location: string, table: "subscriptions" | "watchlists" | "outbox_versions"): Promise<number> {
  const db = await openStore(location, { migrate: false });
  try {
    return await countRows(db, table);
  } finally {
    await closeStore(db);
  }
}

describe(`redline subscriptions (${testDatabaseDialect})`, () => {
  it("adds a webhook subscription, printing its id and signing secret with how to verify it", async () => {
    const db = await archiveWithVendors();
    const added = redline(["subscriptions", "add", "--target", "https://hooks.example.com/redline", "--vendor", "acme", "--kind", "impact-escalated", "--min-impact", "major", "--db", db]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^subscription sub_\S+: webhook to https:\/\/hooks\.example\.com\/redline, vendor acme, kind impact-escalated, impact major or worse/);
    expect(added.stdout).toMatch(/signing secret: whsec_[A-Za-z0-9+/=]+\n/);
    expect(added.stdout).toContain("webhook-signature");
  });

  it("prints exactly {id, secret} with --json", async () => {
    const db = await emptyArchive();
    const added = redline(["subscriptions", "add", "--target", "https://hooks.example.com/json", "--json", "--db", db]);
    expect(added.code).toBe(0);
    const body = JSON.parse(added.stdout) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(["id", "secret"]);
    expect(body.id).toMatch(/^sub_/);
    expect(body.secret).toMatch(/^whsec_/);
  });

  it("infers Slack from the target, lists it with the secret path masked and its filter described, then removes it", async () => {
    const db = await archiveWithVendors();
    const added = JSON.parse(redline(["subscriptions", "add", "--target", "https://hooks.slack.com/services/T000/B000/SECRETPART", "--vendor", "github", "--vendor", "acme", "--digest", "daily", "--json", "--db", db]).stdout) as { id: string };
    const listed = redline(["subscriptions", "list", "--db", db]);
    expect(listed.stdout).toContain(added.id);
    expect(listed.stdout).toContain("slack");
    expect(listed.stdout).toContain("vendor github or acme");
    expect(listed.stdout).not.toContain("SECRETPART");
    const rows = JSON.parse(redline(["subscriptions", "list", "--json", "--db", db]).stdout) as Array<Record<string, unknown>>;
    expect(rows).toEqual([expect.objectContaining({ id: added.id, format: "slack", target: "https://hooks.slack.com/…", digest: "daily", status: "active", pending: 0, lastDeliveredAt: null })]);
    expect(JSON.stringify(rows)).not.toContain("whsec_");
    expect(redline(["subscriptions", "remove", added.id, "--db", db]).stdout).toContain(`removed subscription ${added.id}`);
    expect(redline(["subscriptions", "list", "--db", db]).stdout).toContain("no subscriptions");
    const again = redline(["subscriptions", "remove", added.id, "--db", db]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no subscription/);
  });

  it.each([
    ["a loopback target", ["--target", "http://127.0.0.1:9/hook"], /private, loopback or link-local/],
    ["a local host name", ["--target", "http://localhost:3000/hook"], /local host name/],
    ["a target that is no URL", ["--target", "hooks"], /neither an http\(s\) URL nor mailto/],
    ["a mailto: target in the slack format", ["--target", "mailto:ops@example.com", "--format", "slack"], /takes the email format/],
    ["an unknown format", ["--target", "https://hooks.example.com/x", "--format", "pager"], /--format/],
    ["an unknown impact", ["--target", "https://hooks.example.com/x", "--min-impact", "huge"], /--min-impact/],
    ["an unknown vendor", ["--target", "https://hooks.example.com/x", "--vendor", "nobody"], /no vendor "nobody"/],
    ["an unknown watchlist", ["--target", "https://hooks.example.com/x", "--watchlist", "nothing"], /no watchlist "nothing"/],
  ])("refuses %s with one clear line and a non-zero exit, adding nothing", async (_what, args, message) => {
    const db = await freshLocation(dir);
    redline(["migrate", "--db", db]);
    const result = redline(["subscriptions", "add", ...args, "--db", db]);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(await rowsIn(db, "subscriptions")).toBe(0);
  });

  it("refuses an unknown change kind, naming the valid ones", async () => {
    const result = redline(["subscriptions", "add", "--target", "https://hooks.example.com/x", "--kind", "edited", "--db", await freshLocation(dir)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown change kind "edited"');
    for (const kind of NOTIFYING_KIND_NAMES) expect(result.stderr).toContain(kind);
  });

  it("refuses to filter on what notifies no one: a newly added source's account of the past", async () => {
    const result = redline(["subscriptions", "add", "--target", "https://hooks.example.com/x", "--kind", "new-source-report", "--db", await freshLocation(dir)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("new-source-report notifies no one");
  });

  it("subscribes to quiet degradations of some component groups, and refuses a group beside other kinds, which it could never match", async () => {
    const db = await archiveWithVendors();
    const added = redline(["subscriptions", "add", "--target", "https://hooks.example.com/cdn", "--vendor", "acme", "--kind", "quiet-degradation", "--group", "Europe", "--group", "Asia", "--db", db]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("vendor acme, kind quiet-degradation, group Europe or Asia");
    const refused = redline(["subscriptions", "add", "--target", "https://hooks.example.com/x", "--kind", "update-edited", "--group", "Europe", "--db", db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("subscriptions: --group: a group narrows quiet degradations only");
    expect(await rowsIn(db, "subscriptions")).toBe(1);
  });

  it("allows a loopback target when the operator allows private URLs", async () => {
    const result = redline(["subscriptions", "add", "--target", "http://127.0.0.1:9/hook", "--json", "--db", await emptyArchive()], { REDLINE_ALLOW_PRIVATE_URLS: "1" });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty("id");
  });
});

describe(`redline watchlists (${testDatabaseDialect})`, () => {
  it("adds a watchlist, replaces its members when added again, lists and removes it", async () => {
    const db = await archiveWithVendors();
    const added = redline(["watchlists", "add", "payments", "--vendor", "acme", "--component", "github:Actions", "--db", db]);
    expect(added.code).toBe(0);
    expect(added.stdout).toBe("watchlist payments: acme, github:Actions (page: /watch/payments)\n");
    const replaced = JSON.parse(redline(["watchlists", "add", "payments", "--vendor", "github", "--json", "--db", db]).stdout) as { name: string; members: unknown[] };
    expect(replaced.members).toEqual([{ vendor: "github", vendorName: "github", component: null }]);
    expect(redline(["watchlists", "list", "--db", db]).stdout).toBe("payments: github\n");
    expect(redline(["watchlists", "remove", "payments", "--db", db]).stdout).toContain("removed watchlist payments");
    expect(redline(["watchlists", "list", "--db", db]).stdout).toContain("no watchlists");
  });

  it.each([
    ["an unknown vendor", ["ops", "--vendor", "nobody"], /no vendor "nobody"/],
    ["a name that is not URL-safe", ["Ops Team", "--vendor", "acme"], /invalid name "Ops Team"/],
    ["a watchlist with no members", ["ops"], /at least one --vendor or --component/],
    ["a component without its vendor", ["ops", "--component", "Actions"], /<vendor>:<component name>/],
  ])("refuses %s with one clear line and a non-zero exit", async (_what, args, message) => {
    const db = await archiveWithVendors();
    const result = redline(["watchlists", "add", ...args, "--db", db]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(await rowsIn(db, "watchlists")).toBe(0);
  });

  it("refuses to remove a watchlist a subscription filters on, naming the subscription", async () => {
    const db = await archiveWithVendors();
    redline(["watchlists", "add", "core", "--vendor", "acme", "--db", db]);
    const sub = JSON.parse(redline(["subscriptions", "add", "--target", "https://hooks.example.com/core", "--watchlist", "core", "--json", "--db", db]).stdout) as { id: string };
    const refused = redline(["watchlists", "remove", "core", "--db", db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(sub.id);
    expect(await rowsIn(db, "watchlists")).toBe(1);
    expect(redline(["watchlists", "remove", "missing", "--db", db]).stderr).toMatch(/no watchlist "missing"/);
  });
});

describe(`imports and notifications (${testDatabaseDialect})`, () => {
  let snapshots: string;
  let repo: string;
  beforeAll(() => {
    const body = fs.readFileSync(FIXTURE, "utf8");
    snapshots = path.join(dir, "snapshots");
    fs.mkdirSync(snapshots);
    fs.writeFileSync(path.join(snapshots, "20260301T100000Z__summary.json"), body);
    fs.writeFileSync(path.join(snapshots, "20260301T102000Z__summary.json"), body.replace("Card payouts delayed", "Card payouts delayed in Europe"));
    repo = path.join(dir, "repo");
    fs.mkdirSync(repo);
    execFileSync("git", ["-C", repo, "init", "-q"]);
    for (const [text, when] of [[body, "2026-03-01T10:00:00Z"], [body.replace("Card payouts delayed", "Card payouts delayed in Europe"), "2026-03-01T10:15:00Z"]] as const) {
      fs.writeFileSync(path.join(repo, "summary.json"), text);
      execFileSync("git", ["-C", repo, "add", "summary.json"]);
      execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "snapshot"], { env: { ...process.env, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when } });
    }
  });

  async function subscribed(): Promise<string> {
    const db = await emptyArchive();
    expect(redline(["subscriptions", "add", "--target", "https://hooks.example.com/all", "--db", db]).code).toBe(0);
    return db;
  }

  it.each([
    ["import", () => ["import", snapshots]],
    ["import-git", () => ["import-git", repo, "summary.json"]],
  ])("%s is a quiet backfill: it writes no outbox rows", async (_command, source) => {
    const db = await subscribed();
    const result = redline([...source(), "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/[1-9]\d* new versions/);
    expect(await rowsIn(db, "outbox_versions")).toBe(0);
  });

  it.each([
    ["import", () => ["import", snapshots]],
    ["import-git", () => ["import-git", repo, "summary.json"]],
  ])("%s --notify writes one outbox row per new version for a subscription that matches all", async (_command, source) => {
    const db = await subscribed();
    const result = redline([...source(), "--vendor", "acme", "--platform", "statuspage-summary", "--notify", "--db", db]);
    expect(result.code).toBe(0);
    const versions = Number(/(\d+) new versions/.exec(result.stdout)?.[1]);
    expect(versions).toBeGreaterThan(0);
    expect(await rowsIn(db, "outbox_versions")).toBe(versions);
  });
});
