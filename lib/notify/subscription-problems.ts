/**
 * Subscriptions that need the operator, grouped by what is wrong: disabled ones (why, since when)
 * and failing ones (their latest error). A receiver that is down fails every subscription to it the
 * same way; one line per problem says so, as the polling problems do.
 */
import { describeProblem, earlier, later } from "@/lib/problem-groups";

export interface TroubledSubscription {
  id: string;
  format: string;
  /** As lists show it: chat webhook URLs' secret paths masked. */
  target: string;
  status: "active" | "disabled";
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  lastError: string | null;
  lastAttemptAt: string | null;
}

export interface SubscriptionProblemGroup {
  state: "disabled" | "failing";
  problem: string;
  example: string;
  subscriptions: { id: string; format: string; target: string }[];
  /** Disabled: the first disabling; failing: the start of the earliest run of failures. */
  since: string | null;
  lastSeen: string | null;
}

/** Disabled groups first, then failing ones; within each the widest first. Healthy ones are left out. */
export function groupSubscriptionProblems(subscriptions: readonly TroubledSubscription[]): SubscriptionProblemGroup[] {
  const groups = new Map<string, SubscriptionProblemGroup>();
  for (const s of subscriptions) {
    const state = s.status === "disabled" ? "disabled" : s.failingSince !== null ? "failing" : null;
    if (state === null) continue;
    const example = (state === "disabled" ? s.disabledReason : s.lastError) ?? s.lastError ?? "";
    const problem = example === "" ? (state === "disabled" ? "disabled without a reason" : "failed without a message") : describeProblem(example, "");
    const key = `${state}\u0000${problem}`;
    let group = groups.get(key);
    if (!group) {
      group = { state, problem, example, subscriptions: [], since: null, lastSeen: null };
      groups.set(key, group);
    }
    group.subscriptions.push({ id: s.id, format: s.format, target: s.target });
    group.since = earlier(group.since, state === "disabled" ? s.disabledAt : s.failingSince);
    group.lastSeen = later(group.lastSeen, state === "disabled" ? (s.lastAttemptAt ?? s.disabledAt) : s.lastAttemptAt);
  }
  return [...groups.values()].sort(
    (a, b) => (a.state === b.state ? 0 : a.state === "disabled" ? -1 : 1) || b.subscriptions.length - a.subscriptions.length || (a.problem < b.problem ? -1 : 1),
  );
}
