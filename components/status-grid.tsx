import { ImpactBadge } from "@/components/badges";
import { type ComponentStatus, componentStatusLabel } from "@/lib/components/component-status";
import type { StatusComponent, StatusGroup, StatusIncident } from "@/lib/components/status-view";
import { formatUtcMinute } from "@/lib/format";
import { paths } from "@/lib/incident-key";
import { isAllOperational } from "@/lib/render/status-text";
import { statusLabel } from "@/lib/labels";

/** The impact badge colours, already checked for contrast in both schemes, read as component states. */
const STATE_CLASS: Record<ComponentStatus, string> = {
  "major-outage": "impact-critical",
  "partial-outage": "impact-major",
  degraded: "impact-minor",
  maintenance: "impact-maintenance",
  unknown: "impact-unknown",
  operational: "component-operational",
};

export function ComponentStateBadge({ status }: { status: ComponentStatus }) {
  return <span className={`impact ${STATE_CLASS[status]}`}>{componentStatusLabel(status)}</span>;
}

function ComponentLine({ slug, component }: { slug: string; component: StatusComponent }) {
  return (
    <li>
      <a href={paths.component(slug, component.id)}>{component.name || "(unnamed)"}</a> <ComponentStateBadge status={component.status} />{" "}
      <span className="muted small">
        <span className="visually-hidden">the vendor&rsquo;s word: </span>
        <code>{component.vendorStatus}</code>, since <time dateTime={component.since}>{formatUtcMinute(component.since)}</time>
      </span>
      {component.inferred ? <span className="badge badge-info">inferred from incidents</span> : null}
    </li>
  );
}

function GroupBody({ slug, group }: { slug: string; group: StatusGroup }) {
  return (
    <ul className="component-list">
      {group.members.map((c) => <ComponentLine key={c.id} slug={slug} component={c} />)}
    </ul>
  );
}

/**
 * A status page's grid: groups worst first, each component with its state, the vendor's own word,
 * since when, and whether it was inferred; groups whose every member is operational are folded.
 * Names link to the component's page.
 */
export function StatusGrid({ slug, groups, headingLevel }: { slug: string; groups: readonly StatusGroup[]; headingLevel: 3 | 4 }) {
  if (groups.length === 0) return <p className="muted">No component grid was observed.</p>;
  const Heading = headingLevel === 3 ? "h3" : "h4";
  return (
    <div className="status-grid">
      {groups.map((group) => {
        if (group.name === null) return <GroupBody key="" slug={slug} group={group} />;
        const name = group.own ? <a href={paths.component(slug, group.own.id)}>{group.name || "(unnamed)"}</a> : group.name || "(unnamed)";
        const count = `${group.members.length} ${group.members.length === 1 ? "component" : "components"}`;
        if (isAllOperational(group)) {
          return (
            <details key={group.name} className="component-group">
              <summary>
                {group.name || "(unnamed)"} <ComponentStateBadge status="operational" /> <span className="muted small">({count})</span>
              </summary>
              <GroupBody slug={slug} group={group} />
            </details>
          );
        }
        return (
          <section key={group.name} className="component-group">
            <Heading>
              {name} <ComponentStateBadge status={group.own?.status ?? group.worst} />
            </Heading>
            <p className="muted small">
              {group.own ? (
                <>
                  the vendor&rsquo;s word <code>{group.own.vendorStatus}</code>, since <time dateTime={group.own.since}>{formatUtcMinute(group.own.since)}</time>; {count}
                </>
              ) : (
                `the worst of its ${count}`
              )}
            </p>
            <GroupBody slug={slug} group={group} />
          </section>
        );
      })}
    </div>
  );
}

/** Incidents open at a moment, each linked to its version of then. */
export function OpenIncidentList({ slug, incidents }: { slug: string; incidents: readonly StatusIncident[] }) {
  return (
    <ul>
      {incidents.map((i) => (
        <li key={i.id}>
          {i.impact === null ? null : <><ImpactBadge impact={i.impact} />{" "}</>}
          <a href={paths.version(slug, i.id, i.seq)}>{i.title || "(untitled)"}</a>{" "}
          <span className="muted">{i.status === null ? "no status given" : statusLabel(i.status)}, version {i.seq}</span>
        </li>
      ))}
    </ul>
  );
}
