import { UtcTime } from "@/components/utc-time";
import type { SubscriptionProblemGroup } from "@/lib/notify/subscription-problems";

const NAMED = 6;

/** Disabled and failing subscriptions, one entry per problem: what is wrong, how many, since when. */
export function SubscriptionProblems({ groups, now }: { groups: readonly SubscriptionProblemGroup[]; now: Date }) {
  if (groups.length === 0) return <p className="health-ok">No subscription is disabled or failing.</p>;
  return (
    <ul className="problem-groups">
      {groups.map((g) => {
        const count = g.subscriptions.length === 1 ? "1 subscription" : `${g.subscriptions.length} subscriptions`;
        const named = g.subscriptions.slice(0, NAMED).map((s) => `${s.id} (${s.format} to ${s.target})`).join(", ");
        return (
          <li key={`${g.state}:${g.problem}`} data-subscription-problem={g.state}>
            <p>
              <strong className="health-failed">{g.state === "disabled" ? "Disabled" : "Failing"}</strong>: <code>{g.problem}</code>
            </p>
            <p className="small">
              <strong>{count}</strong>: {named}
              {g.subscriptions.length > NAMED ? ` and ${g.subscriptions.length - NAMED} more` : ""}.{" "}
              {g.state === "disabled" ? "Disabled since" : "Failing since"} <UtcTime iso={g.since} now={now} />
              {g.lastSeen ? <>, last attempt <UtcTime iso={g.lastSeen} now={now} /></> : null}.
            </p>
            <p className="small muted">
              {g.state === "disabled" ? "Why" : "Last error"}: <code>{g.example}</code>
            </p>
          </li>
        );
      })}
    </ul>
  );
}
