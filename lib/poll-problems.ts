/** A vendor's last poll as the operator page groups it. */
export interface PolledVendor {
  slug: string;
  name: string;
  url: string | null;
  lastOutcome: string | null;
  lastError: string | null;
}

/** One problem shared by the vendors whose last poll failed the same way. */
export interface PollProblem {
  outcome: string;
  /** The error with the vendor's own host taken out, so one outage of a resolver reads as one line. */
  problem: string;
  vendors: Array<{ slug: string; name: string }>;
}

const HOST = "‹host›";

function hostOf(url: string | null): string | null {
  if (url === null) return null;
  return URL.parse(url)?.host ?? null;
}

/** The error of a failed poll without what differs from vendor to vendor: its host, and any other host name in it. */
export function describePollProblem(error: string | null, url: string | null): string {
  if (error === null || error.trim() === "") return "no error recorded";
  let text = error.trim();
  const host = hostOf(url);
  if (host) text = text.split(host).join(HOST);
  const hostname = host?.replace(/:\d+$/, "");
  if (hostname && hostname !== host) text = text.split(hostname).join(HOST);
  return text.replace(/\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?::\d+)?\b/gi, HOST);
}

/** Failing vendors grouped by outcome and problem, the most widespread problem first. */
export function groupPollProblems(vendors: readonly PolledVendor[]): PollProblem[] {
  const groups = new Map<string, PollProblem>();
  for (const v of vendors) {
    if (v.lastOutcome === null || v.lastOutcome === "ok") continue;
    const problem = describePollProblem(v.lastError, v.url);
    const key = `${v.lastOutcome}\n${problem}`;
    const group = groups.get(key) ?? { outcome: v.lastOutcome, problem, vendors: [] };
    group.vendors.push({ slug: v.slug, name: v.name });
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.vendors.length - a.vendors.length || a.problem.localeCompare(b.problem));
}
