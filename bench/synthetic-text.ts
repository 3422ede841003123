/**
 * The words of the synthetic archive: a seeded random source, vendor and component names, and
 * status-page prose (updates, postmortems) of realistic length, since page cost grows with text.
 */
export type Random = () => number;

/** mulberry32: small, fast and good enough to pick words. */
export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("bench: pick from an empty list");
  return item;
}

export function between(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

const ID_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz";

/** A Statuspage-style 12-character id. */
export function providerId(random: Random): string {
  let id = "";
  for (let i = 0; i < 12; i += 1) id += ID_CHARS[Math.floor(random() * ID_CHARS.length)];
  return id;
}

export const NAME_HEADS = ["North", "Blue", "Iron", "Cloud", "Swift", "Bright", "Stack", "Pixel", "Quantum", "Harbor", "Cedar", "Signal", "Nimbus", "Atlas", "Vector", "Orbit", "Lumen", "Granite", "Echo", "Summit"];
export const NAME_TAILS = ["Pay", "Hub", "Base", "Mail", "Ops", "Deploy", "Metrics", "Auth", "Store", "Queue"];
export const COMPONENT_NAMES = [
  "API", "Dashboard", "Webhooks", "Authentication", "Billing", "Database", "CDN", "DNS", "Email delivery", "Git operations",
  "CI builds", "Packages", "Pages", "Search", "Notifications", "Mobile apps", "Payments", "Object storage", "Compute", "Networking",
  "Load balancers", "Logging", "Metrics ingestion", "Support portal", "SSO", "Realtime messaging", "Queues", "Scheduled jobs", "Container registry", "Analytics",
];
export const REGIONS = ["us-east", "us-west", "eu-west", "eu-central", "ap-south", "ap-northeast", "sa-east"];
const SYMPTOMS = [
  "elevated error rates", "increased latency", "failed requests", "request timeouts", "delayed webhook deliveries", "login failures",
  "failed deployments", "slow page loads", "missing metrics", "failed payments", "degraded search results", "stale dashboards",
];
const CAUSES = [
  "a misconfigured load balancer", "a faulty deployment", "database replication lag", "an expired TLS certificate",
  "DNS resolution failures at an upstream provider", "exhausted connection pools", "a saturated storage cluster",
  "a network partition between availability zones", "a bad configuration push", "a capacity shortfall", "a memory leak in the API gateway",
  "a failed failover of the primary database", "throttling by a third-party provider", "a runaway background job",
];
const EXTRAS = [
  "Customers may see HTTP 502 and 503 responses.", "Retries should succeed.", "We will provide another update within 30 minutes.",
  "No data has been lost.", "Our engineers are working with our upstream provider.", "Queued jobs will be processed once service is restored.",
  "Existing sessions are not affected.", "We apologize for the inconvenience.", "Some customers may need to sign in again.",
  "Scheduled reports may arrive late.", "Webhooks that failed during this period will be retried automatically.",
  "We are rolling back the change to all regions.", "Traffic has been shifted away from the affected zone.",
  "We are adding capacity to absorb the backlog.", "The status of individual requests can be checked in the dashboard.",
];

/** Between min and max stock sentences. */
export function sentences(random: Random, min: number, max: number): string {
  return Array.from({ length: between(random, min, max) }, () => pick(random, EXTRAS)).join(" ");
}

/** A Markdown postmortem of a few KB: summary, root cause, timeline, remediation. */
export function postmortemBody(random: Random, title: string, component: string): string {
  const cause = pick(random, CAUSES);
  const timeline = Array.from({ length: between(random, 4, 9) }, (_, i) => `- ${String(10 + i).padStart(2, "0")}:${String(between(random, 0, 59)).padStart(2, "0")} UTC: ${sentences(random, 1, 2)}`);
  return [
    `## Summary`, ``, `${title}. Between the times below, ${component} returned ${pick(random, SYMPTOMS)} for a share of customers. ${sentences(random, 2, 4)}`, ``,
    `## Root cause`, ``, `The incident was caused by ${cause}. ${sentences(random, 3, 6)} ${sentences(random, 2, 4)}`, ``,
    `## Timeline`, ``, ...timeline, ``,
    `## Remediation`, ``, `- Add alerting on ${pick(random, SYMPTOMS)} for ${component}.`, `- Review how ${cause} can be caught before it reaches production.`,
    `- ${sentences(random, 1, 2)}`, ``, `We are sorry for the disruption this caused.`,
  ].join("\n");
}

/** An update's text for its status: a sentence or two, or a long-form write-up of many. */
export function updateBody(random: Random, status: string, component: string, long: boolean): string {
  const [min, max] = long ? [6, 12] : [0, 3];
  switch (status) {
    case "investigating":
      return `We are investigating reports of ${pick(random, SYMPTOMS)} affecting ${component}. ${sentences(random, min, max)}`;
    case "identified":
      return `The issue has been identified as ${pick(random, CAUSES)} in ${pick(random, REGIONS)}. ${sentences(random, min, max)}`;
    case "monitoring":
      return `A fix has been implemented and we are monitoring the results. ${sentences(random, min, max)}`;
    case "scheduled":
      return `We will be performing scheduled maintenance on ${component}. During the window ${pick(random, SYMPTOMS)} are possible. ${sentences(random, min, max)}`;
    case "in_progress":
      return `Scheduled maintenance is currently in progress. ${sentences(random, min, max)}`;
    case "completed":
      return `The scheduled maintenance has been completed. ${sentences(random, min, max)}`;
    default:
      return `This incident has been resolved. ${component} is operating normally. ${sentences(random, min, max)}`;
  }
}

