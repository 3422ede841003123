/**
 * What the home page says when its list is empty: an empty archive, an archive with incidents but
 * none of the tab's changes yet, and a filter that matches nothing are three different truths, and
 * only the last is "No changes match".
 */
import type { HomeTab } from "@/lib/quiet-edits";

export interface ArchiveCounts {
  vendors: number;
  /** Of them, those the poller polls (enabled, with a URL). */
  polledVendors: number;
  incidents: number;
}

export interface HomeListQuery {
  tab: HomeTab | "custom";
  /** A vendor, a component group or kinds picked in the filter. */
  filtered: boolean;
  /** A page after the first. */
  paged: boolean;
}

export interface EmptyHome {
  text: string;
  /** A command to run, shown as code after the text. */
  command?: string;
  /** Where to go instead. */
  link?: { href: string; label: string };
}

/** The newest changes of every kind: where a reader goes when a tab has none yet. */
const EVERY_CHANGE = { href: "/?show=all", label: "See every change, newest first" };

function countOf(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/**
 * The empty home list's words: `counts` are read only for an unfiltered first page. `clearHref`
 * is the tab's address without the filter; `command` prints a redline command for the server's archive.
 */
export function describeEmptyHome(
  query: HomeListQuery,
  counts: ArchiveCounts | null,
  clearHref: string,
  command: (args: string) => string = (args) => `npm run redline -- ${args}`,
): EmptyHome {
  const nothing = query.tab === "degradations" ? "No quiet degradation matches." : "No changes match.";
  if (query.filtered) return { text: nothing, link: { href: clearHref, label: "Clear the filter" } };
  if (query.paged) return { text: "No older changes.", link: { href: clearHref, label: "Back to the newest" } };
  if (counts === null) return { text: nothing };
  if (counts.vendors === 0) {
    return {
      text: "This archive is empty: it has no vendor yet. Started with npm start, Redline adds its catalog of vendors and polls them; to add one of your own, run:",
      command: command("vendors add --slug acme --name Acme --platform statuspage --url https://status.acme.com"),
    };
  }
  if (counts.incidents === 0) {
    const polled = counts.polledVendors === 0
      ? `None of its ${countOf(counts.vendors, "vendor is", "vendors are")} polled: add one with a URL, or import snapshots.`
      : `Redline polls ${countOf(counts.polledVendors, "vendor", "vendors")}: their incidents appear here as polls find them (npm start runs a poller).`;
    return { text: `No incident archived yet. ${polled}` };
  }
  const archived = `${countOf(counts.incidents, "incident", "incidents")} archived`;
  if (query.tab === "quiet") return { text: `No vendor has changed anything after the fact yet; ${archived}.`, link: EVERY_CHANGE };
  if (query.tab === "degradations") {
    return { text: `No quiet degradation yet: no status page showed a component degraded or down while no incident was open; ${archived}.`, link: EVERY_CHANGE };
  }
  return { text: `No change of this kind yet; ${archived}.`, link: EVERY_CHANGE };
}
