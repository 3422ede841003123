import { UtcTime } from "@/components/utc-time";
import type { ProblemGroup } from "@/lib/problem-groups";

const NAMED = 6;

/** Failing vendors, one entry per problem: what is wrong, how many vendors it hits, since when. */
export function ProblemGroups({ groups, now }: { groups: readonly ProblemGroup[]; now: Date }) {
  if (groups.length === 0) return <p className="health-ok">No vendor is failing.</p>;
  return (
    <ul className="problem-groups">
      {groups.map((g) => {
        const count = g.vendors.length === 1 ? "1 vendor" : `${g.vendors.length} vendors`;
        const named = g.vendors.slice(0, NAMED).map((v) => v.name).join(", ");
        return (
          <li key={g.problem} data-problem={g.problem}>
            <p>
              <code className="health-failed">{g.problem}</code>
            </p>
            <p className="small">
              <strong>{count}</strong>: {named}
              {g.vendors.length > NAMED ? ` and ${g.vendors.length - NAMED} more` : ""}.{" "}
              First seen <UtcTime iso={g.firstSeen} now={now} />, last seen <UtcTime iso={g.lastSeen} now={now} />.
            </p>
            {g.vendors.length > NAMED ? (
              <details className="small">
                <summary>All {count}</summary>
                <p>{g.vendors.map((v) => `${v.name} (${v.slug})`).join(", ")}</p>
              </details>
            ) : null}
            <p className="small muted">
              As recorded for {g.vendors[0]?.name}: <code>{g.example}</code>
            </p>
          </li>
        );
      })}
    </ul>
  );
}
