/**
 * Whether polling failed for every vendor, which says more about this machine (offline, DNS
 * failing, a firewall) than about the vendors: the poller's log says so once, and the web pages
 * show it until a poll succeeds. Both judge the vendors' latest poll outcomes by the same rule.
 */
import { withoutCredentials } from "@/lib/url-credentials";

/**
 * Failing vendors it takes, when there are more, before the failures speak for the machine: an
 * offline machine's first ten polls fail within seconds, while a whole round of a large catalog
 * takes minutes, and ten unrelated vendors failing at once on a working network is unheard of.
 */
export const FAILING_VENDORS_MIN = 10;

/** The latest poll outcome of each polled vendor, counted. */
export interface PollOutcomes {
  /** Vendors that are polled (enabled, with a URL). */
  vendors: number;
  /** Of them, those whose latest poll succeeded, and those whose latest poll failed; the rest were never polled. */
  ok: number;
  failed: number;
  /** The error of the latest failed poll, when one is known. */
  lastError: string | null;
}

/** No vendor's latest poll succeeded, and every vendor's failed (or ten of them, of a larger list). */
export function isEveryPollFailing(outcomes: PollOutcomes): boolean {
  return outcomes.ok === 0 && outcomes.failed > 0 && outcomes.failed >= Math.min(outcomes.vendors, FAILING_VENDORS_MIN);
}

const TRY_THE_DEMO = "`npm run demo` shows Redline at work without internet";

function vendorsCounted(outcomes: PollOutcomes): string {
  return outcomes.failed === outcomes.vendors ? `all ${outcomes.vendors} vendors` : `the ${outcomes.failed} vendors polled so far (of ${outcomes.vendors})`;
}

/** What the poller logs once when every poll failed: what it likely means, and what to do. */
export function describeEveryPollFailing(outcomes: PollOutcomes): string {
  return (
    `poller: the last polls of ${vendorsCounted(outcomes)} failed: is this machine offline, or is DNS failing? ` +
    `Check its network, DNS and firewall; polling goes on with backoff, and this log says when a poll succeeds again (${TRY_THE_DEMO}). ` +
    `Last error: ${outcomes.lastError ?? "none recorded"}`
  );
}

/** The web pages' banner while every poll fails; null when any succeeds, or nothing was polled. */
export function pollingNotice(outcomes: PollOutcomes): string | null {
  if (!isEveryPollFailing(outcomes)) return null;
  return (
    `Redline cannot reach any vendor: the last polls of ${vendorsCounted(outcomes)} failed, so nothing new is archived. ` +
    `Is the machine running the poller offline, or is its DNS failing? The pages show what was archived before; ` +
    `this notice goes once a poll succeeds. Last error: ${outcomes.lastError === null ? "none recorded" : withoutCredentials(outcomes.lastError)}`
  );
}

/**
 * The poller's log of it, from the outcomes of its own polls: one line when every poll has come to
 * fail, one when a poll succeeds again, and nothing in between, however many rounds fail.
 */
export class PollFailureWatch {
  private readonly latest = new Map<number, boolean>();
  private okCount = 0;
  private failing = false;
  private lastError: string | null = null;

  /** `vendors`: how many are polled, read as the poller starts. */
  constructor(private vendors: number) {}

  /** The line to log after a vendor's poll, or null. */
  record(vendor: { id: number; slug: string }, result: { ok: boolean; error: string | null }): string | null {
    const before = this.latest.get(vendor.id);
    this.latest.set(vendor.id, result.ok);
    if (before !== result.ok) this.okCount += (result.ok ? 1 : 0) - (before === true ? 1 : 0);
    if (!result.ok) this.lastError = result.error;
    // A vendor added since the poller started counts too.
    this.vendors = Math.max(this.vendors, this.latest.size);
    const outcomes: PollOutcomes = { vendors: this.vendors, ok: this.okCount, failed: this.latest.size - this.okCount, lastError: this.lastError };
    if (!this.failing && isEveryPollFailing(outcomes)) {
      this.failing = true;
      return describeEveryPollFailing(outcomes);
    }
    if (this.failing && result.ok) {
      this.failing = false;
      return `poller: ${vendor.slug} was polled successfully: the vendors can be reached again`;
    }
    return null;
  }
}
