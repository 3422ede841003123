/**
 * Failing vendors grouped by what is wrong. When the network is down every vendor fails with the
 * same error, differing only in its own name and address; an operator needs one line for it, with
 * how many vendors it hits and since when, not the same error once per vendor.
 */

export interface FailingSource {
  vendorSlug: string;
  vendorName: string;
  error: string;
  /** The first failure of its current run of failures, when known. */
  since: string | null;
  /** Its latest failure. */
  lastAt: string | null;
}

export interface ProblemGroup {
  /** The error with what differs between vendors (their slug, addresses, host names) left out. */
  problem: string;
  /** One vendor's error as it was recorded. */
  example: string;
  vendors: { slug: string; name: string }[];
  firstSeen: string | null;
  lastSeen: string | null;
}

const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>]+?(?=:\s|[\s"'<>),;]|$)/g;
const IP_PATTERN = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g;
const HOST_PATTERN = /\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}\b/gi;

/** "github: https://…/summary.json: cannot resolve www.githubstatus.com (EAI_AGAIN)" → "cannot resolve <host> (EAI_AGAIN)". */
export function describeProblem(error: string, vendorSlug: string): string {
  let text = error.trim();
  if (text.startsWith(`${vendorSlug}: `)) text = text.slice(vendorSlug.length + 2);
  text = text
    .replace(URL_PATTERN, "<address>")
    .replace(IP_PATTERN, "<address>")
    .replace(HOST_PATTERN, "<host>")
    .replace(/^<address>:\s*/, "")
    .replace(/\s+/g, " ")
    .trim();
  return text === "" ? "failed without a message" : text;
}

/** The earlier of two ISO times, either possibly unknown. */
export function earlier(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a < b ? a : b;
}

/** The later of two ISO times, either possibly unknown. */
export function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/** One group per problem, the widest first (then the most recent); vendors by name within a group. */
export function groupProblems(failing: readonly FailingSource[]): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup & { slugs: Set<string> }>();
  for (const f of failing) {
    const problem = describeProblem(f.error, f.vendorSlug);
    let group = groups.get(problem);
    if (!group) {
      group = { problem, example: f.error, vendors: [], slugs: new Set(), firstSeen: null, lastSeen: null };
      groups.set(problem, group);
    }
    if (!group.slugs.has(f.vendorSlug)) {
      group.slugs.add(f.vendorSlug);
      group.vendors.push({ slug: f.vendorSlug, name: f.vendorName });
    }
    group.firstSeen = earlier(group.firstSeen, f.since ?? f.lastAt);
    group.lastSeen = later(group.lastSeen, f.lastAt);
  }
  return [...groups.values()]
    .map(({ slugs: _slugs, ...group }) => ({
      ...group,
      vendors: group.vendors.sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || (a.slug < b.slug ? -1 : 1)),
    }))
    .sort((a, b) => b.vendors.length - a.vendors.length || (b.lastSeen ?? "").localeCompare(a.lastSeen ?? "") || (a.problem < b.problem ? -1 : 1));
}
