import { ImpactBadge } from "@/components/badges";
import { SideOfDiff, TextDiff, TextOpening } from "@/components/text-diff";
import { type Change, FIELD_LABELS, type UpdateChange } from "@/lib/change";
import { describeExtensionInDiff, extensionOfUpdate, updateChangeLabel } from "@/lib/derive/update-extension";
import { formatUtcSecond } from "@/lib/format";
import type { Component, IncidentUpdate, Postmortem } from "@/lib/incident";
import { renderVendorMarkdown, renderVendorMarkdownAt, vendorMarkdownToText } from "@/lib/render/vendor-markdown";
import { isLongText } from "@/lib/diff-hunks";
import { isRewrite } from "@/lib/word-diff";
import { presenceLabel, statusLabel } from "@/lib/labels";
import { describePostmortemUpdate, postmortemUpdateChange } from "@/lib/postmortem-update";

/** An update's text as the vendor wrote it: Markdown (Google Cloud's), rendered through the sanitizer. */
function UpdateText({ text }: { text: string }) {
  return <div className="vendor-markdown" dangerouslySetInnerHTML={{ __html: renderVendorMarkdown(text) }} />;
}

function NotPresent() {
  return <span className="muted">not present</span>;
}

function components(list: readonly Component[] | null) {
  return list === null || list.length === 0 ? <NotPresent /> : list.map((c) => c.name).join(", ");
}

function updateHeading(u: IncidentUpdate | null): string {
  if (!u) return "";
  return [u.status ? statusLabel(u.status) : null, u.displayAt ? formatUtcSecond(u.displayAt) : null].filter(Boolean).join(", ");
}

function Side({ label, children }: { label: "Before" | "After"; children: React.ReactNode }) {
  return (
    <div className={`side side-${label.toLowerCase()}`}>
      <div className="side-label">{label}</div>
      <div className="side-value">{children}</div>
    </div>
  );
}

/**
 * Before | After: side by side from tablet width, stacked on a phone (globals.css). A text that
 * only one side has takes the full width; the other side is a one-line "not present".
 */
function Sides({ before, after, oneSided = false }: { before: React.ReactNode; after: React.ReactNode; oneSided?: boolean }) {
  return (
    <div className={oneSided ? "sides one-sided" : "sides"}>
      <Side label="Before">{before}</Side>
      <Side label="After">{after}</Side>
    </div>
  );
}

/**
 * One rendering of an edited text, and the whole of both texts behind a click (no script needed).
 * The words are compared as read, Markdown syntax gone, so no `**` or `| :--- |` shows in a diff.
 */
function EditedText({ before, after, whole, extended = false }: { before: string; after: string; whole: { before: React.ReactNode; after: React.ReactNode }; extended?: boolean }) {
  const plainBefore = vendorMarkdownToText(before);
  const plainAfter = vendorMarkdownToText(after);
  // Text only added keeps every word of the old: marked word by word however much was added.
  if (!extended && isRewrite(plainBefore, plainAfter)) {
    if (!isLongText(plainBefore) && !isLongText(plainAfter)) {
      return (
        <>
          <p className="muted small">Rewritten: too little of the text was kept to mark word by word.</p>
          <Sides before={whole.before} after={whole.after} />
        </>
      );
    }
    // Two long texts in full would be pages of red then green: their openings say what was replaced by what.
    return (
      <>
        <p className="muted small">Rewritten: too little of the text was kept to mark word by word. Each version&apos;s opening:</p>
        <Sides before={<TextOpening text={plainBefore} />} after={<TextOpening text={plainAfter} />} />
        <WholeText whole={whole} />
      </>
    );
  }
  return (
    <>
      <div className="side side-words">
        <div className="side-label">Word changes</div>
        <div className="side-value">
          {plainBefore === plainAfter ? (
            <p className="muted">Only the formatting changed; the whole text is below.</p>
          ) : (
            <TextDiff before={plainBefore} after={plainAfter} />
          )}
        </div>
      </div>
      <WholeText whole={whole} />
    </>
  );
}

function WholeText({ whole }: { whole: { before: React.ReactNode; after: React.ReactNode } }) {
  return (
    <details className="whole-text">
      <summary>Whole text, before and after</summary>
      <Sides before={whole.before} after={whole.after} />
    </details>
  );
}

/** A short value that changed beside an edited text (an update's status and time): old → new. */
function Moved({ label, before, after }: { label?: string; before: string; after: string }) {
  if (before === after) return null;
  return (
    <p className="muted small">
      {label ? `${label}: ` : null}
      <del>{before || "not stated"}</del> → <ins>{after || "not stated"}</ins>
    </p>
  );
}

function Scalar({ field, value }: { field: Change["field"]; value: string | null }) {
  if (value === null || value === "") return <NotPresent />;
  if (field === "impact") return <ImpactBadge impact={value} />;
  if (field === "startedAt" || field === "resolvedAt" || field === "scheduledFor" || field === "scheduledUntil") return <>{formatUtcSecond(value)}</>;
  if (field === "url") return <code>{value}</code>;
  if (field === "status") return <>{statusLabel(value)}</>;
  return <>{value.replace(/_/g, " ")}</>;
}

/** One side of an update; its status and time only where they differ from the block's heading, which says them once. */
function UpdateSide({ update, heading }: { update: IncidentUpdate | null; heading: string }) {
  if (!update) return <NotPresent />;
  const own = updateHeading(update);
  return (
    <>
      {own !== heading ? <p className="muted small">{own || "No status or time given"}</p> : null}
      <UpdateText text={update.body} />
    </>
  );
}

function UpdateBlock({ before, after }: { before: IncidentUpdate | null; after: IncidentUpdate | null }) {
  const heading = updateHeading(after ?? before);
  const label = updateChangeLabel(before, after);
  const extension = before && after ? extensionOfUpdate(before, after) : null;
  return (
    <section className="change-block">
      <h3>
        {label}
        {heading ? <span className="muted"> ({heading})</span> : null}
      </h3>
      {before && after && before.body !== after.body ? (
        <>
          <Moved before={updateHeading(before)} after={updateHeading(after)} />
          {extension ? <p className="muted small">{describeExtensionInDiff(extension)}</p> : null}
          <EditedText
            before={before.body}
            after={after.body}
            extended={extension !== null}
            whole={{ before: <UpdateSide update={before} heading={heading} />, after: <UpdateSide update={after} heading={heading} /> }}
          />
        </>
      ) : (
        <Sides before={<UpdateSide update={before} heading={heading} />} after={<UpdateSide update={after} heading={heading} />} oneSided={before === null || after === null} />
      )}
    </section>
  );
}

function PostmortemSide({ postmortem }: { postmortem: Postmortem | null }) {
  if (!postmortem) return <NotPresent />;
  return (
    <div className="postmortem">
      {postmortem.publishedAt ? <p className="muted small">Published {formatUtcSecond(postmortem.publishedAt)}</p> : null}
      <div className="vendor-markdown" dangerouslySetInnerHTML={{ __html: renderVendorMarkdownAt(postmortem.body, 4) }} />
    </div>
  );
}

function PostmortemBlock({ before, after, asUpdate }: { before: Postmortem | null; after: Postmortem | null; asUpdate: UpdateChange | null }) {
  return (
    <section className="change-block">
      <h3>{FIELD_LABELS.postmortem}</h3>
      {asUpdate ? <p className="muted small postmortem-update">{describePostmortemUpdate(asUpdate)}</p> : null}
      {before && after && before.body !== after.body ? (
        <>
          <Moved label="Published" before={formatUtcSecond(before.publishedAt)} after={formatUtcSecond(after.publishedAt)} />
          <EditedText before={before.body} after={after.body} whole={{ before: <PostmortemSide postmortem={before} />, after: <PostmortemSide postmortem={after} /> }} />
        </>
      ) : (
        <Sides before={<PostmortemSide postmortem={before} />} after={<PostmortemSide postmortem={after} />} oneSided={before === null || after === null} />
      )}
    </section>
  );
}

/** One field's change, as the change page and the compare page show it; `asUpdate`: the postmortem's repeat as an update. */
export function ChangeBlock({ change, asUpdate = null }: { change: Change; asUpdate?: UpdateChange | null }) {
  switch (change.field) {
    case "update":
      return <UpdateBlock before={change.before} after={change.after} />;
    case "postmortem":
      return <PostmortemBlock before={change.before} after={change.after} asUpdate={asUpdate} />;
    case "components":
      return (
        <section className="change-block">
          <h3>{FIELD_LABELS.components}</h3>
          <Sides before={components(change.before)} after={components(change.after)} />
        </section>
      );
    case "presence":
      return (
        <section className="change-block">
          <h3>{FIELD_LABELS.presence}</h3>
          <Sides before={change.before ? presenceLabel(change.before) : <NotPresent />} after={change.after ? presenceLabel(change.after) : <NotPresent />} />
        </section>
      );
    case "title":
      return (
        <section className="change-block">
          <h3>{FIELD_LABELS.title}</h3>
          {change.before && change.after ? (
            <Sides before={<SideOfDiff before={change.before} after={change.after} side="before" />} after={<SideOfDiff before={change.before} after={change.after} side="after" />} />
          ) : (
            <Sides before={<Scalar field="title" value={change.before} />} after={<Scalar field="title" value={change.after} />} />
          )}
        </section>
      );
    default:
      return (
        <section className="change-block">
          <h3>{FIELD_LABELS[change.field]}</h3>
          <Sides before={<Scalar field={change.field} value={change.before} />} after={<Scalar field={change.field} value={change.after} />} />
        </section>
      );
  }
}

/**
 * The changes in the order given: pages pass them through orderChanges (lib/change-order). A
 * postmortem posted as an update too (Google Cloud's report) is shown once, as the postmortem.
 */
export function WhatChanged({ changes }: { changes: readonly Change[] }) {
  if (changes.length === 0) return <p>Nothing changed between these versions.</p>;
  const asUpdate = postmortemUpdateChange(changes);
  return (
    <div className="what-changed">
      {changes.map((c, i) =>
        c === asUpdate ? null : <ChangeBlock key={`${c.field}-${"updateId" in c ? c.updateId : ""}-${i}`} change={c} asUpdate={asUpdate} />,
      )}
    </div>
  );
}
