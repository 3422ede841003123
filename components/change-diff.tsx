import { ImpactBadge } from "@/components/badges";
import { TextDiff, VendorText } from "@/components/text-diff";
import { PostmortemBody } from "@/components/postmortem-body";
import { type Change, FIELD_LABELS } from "@/lib/change";
import { formatUtcSecond } from "@/lib/format";
import type { Component, IncidentUpdate } from "@/lib/incident";

function NotPresent() {
  return <span className="muted">not present</span>;
}

function components(list: readonly Component[] | null) {
  return list === null || list.length === 0 ? <NotPresent /> : list.map((c) => c.name).join(", ");
}

function updateHeading(u: IncidentUpdate | null): string {
  if (!u) return "";
  return [u.status?.replace(/_/g, " "), u.displayAt ? formatUtcSecond(u.displayAt) : null].filter(Boolean).join(", ");
}

function Side({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className={`side side-${label.toLowerCase()}`}>
      <div className="side-label">{label}</div>
      <div className="side-value">{children}</div>
    </div>
  );
}

function Scalar({ field, value }: { field: Change["field"]; value: string | null }) {
  if (value === null || value === "") return <NotPresent />;
  if (field === "impact") return <ImpactBadge impact={value} />;
  if (field === "startedAt" || field === "resolvedAt" || field === "scheduledFor" || field === "scheduledUntil") return <>{formatUtcSecond(value)}</>;
  if (field === "url") return <code>{value}</code>;
  return <>{value}</>;
}

/** One field's Before / After, as the change page and the compare page show it. */
export function ChangeBlock({ change }: { change: Change }) {
  switch (change.field) {
    case "update": {
      const heading = updateHeading(change.after ?? change.before);
      const edited = change.before && change.after && change.before.body !== change.after.body;
      return (
        <section className="change-block">
          <h3>
            {FIELD_LABELS.update}
            {heading ? <span className="muted"> ({heading})</span> : null}
          </h3>
          <Side label="Before">{change.before ? <><p className="muted small">{updateHeading(change.before)}</p><VendorText text={change.before.body} /></> : <NotPresent />}</Side>
          <Side label="After">{change.after ? <><p className="muted small">{updateHeading(change.after)}</p><VendorText text={change.after.body} /></> : <NotPresent />}</Side>
          {edited && change.before && change.after ? <Side label="Word changes"><TextDiff before={change.before.body} after={change.after.body} /></Side> : null}
        </section>
      );
    }
    case "postmortem":
      return (
        <section className="change-block">
          <h3>{FIELD_LABELS.postmortem}</h3>
          <Side label="Before">{change.before ? <PostmortemBody postmortem={change.before} headingLevel={4} /> : <NotPresent />}</Side>
          <Side label="After">{change.after ? <PostmortemBody postmortem={change.after} headingLevel={4} /> : <NotPresent />}</Side>
          {change.before && change.after && change.before.body !== change.after.body ? (
            <Side label="Word changes"><TextDiff before={change.before.body} after={change.after.body} /></Side>
          ) : null}
        </section>
      );
    case "components":
      return (
        <section className="change-block">
          <h3>{FIELD_LABELS.components}</h3>
          <Side label="Before">{components(change.before)}</Side>
          <Side label="After">{components(change.after)}</Side>
        </section>
      );
    case "presence":
      return (
        <section className="change-block">
          <h3>{FIELD_LABELS.presence}</h3>
          <Side label="Before">{change.before ?? <NotPresent />}</Side>
          <Side label="After">{change.after ?? <NotPresent />}</Side>
        </section>
      );
    default:
      return (
        <section className="change-block">
          <h3>{FIELD_LABELS[change.field]}</h3>
          <Side label="Before"><Scalar field={change.field} value={change.before} /></Side>
          <Side label="After"><Scalar field={change.field} value={change.after} /></Side>
          {change.field === "title" && change.before && change.after ? <Side label="Word changes"><TextDiff before={change.before} after={change.after} /></Side> : null}
        </section>
      );
  }
}

export function WhatChanged({ changes }: { changes: readonly Change[] }) {
  if (changes.length === 0) return <p>Nothing changed between these versions.</p>;
  return (
    <div className="what-changed">
      {changes.map((c, i) => (
        <ChangeBlock key={`${c.field}-${"updateId" in c ? c.updateId : ""}-${i}`} change={c} />
      ))}
    </div>
  );
}
