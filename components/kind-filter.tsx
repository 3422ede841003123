import { CHANGE_KIND_INFO, CHANGE_KIND_NAMES, type ChangeKindName } from "@/lib/change-kinds";

/** Kinds people ask for most: the edits vendors make quietly. */
export const QUIET_EDITS: readonly ChangeKindName[] = ["update-edited", "impact-downgraded", "timing-changed", "update-removed", "update-backdated", "incident-deleted", "postmortem-edited"];

/** A plain GET form: works without JavaScript, and its URL can be shared. */
export function KindFilter({ action, selected, vendors, vendor }: { action: string; selected: readonly ChangeKindName[]; vendors?: ReadonlyArray<{ slug: string; name: string }>; vendor?: string }) {
  const chosen = new Set(selected);
  return (
    <form className="filters" method="get" action={action} role="search" aria-label="Filter changes">
      <fieldset>
        <legend>Kinds of change</legend>
        <div className="kind-options">
          {CHANGE_KIND_NAMES.map((kind) => (
            <label key={kind} title={CHANGE_KIND_INFO[kind].description}>
              <input type="checkbox" name="kind" value={kind} defaultChecked={chosen.has(kind)} /> {CHANGE_KIND_INFO[kind].label}
            </label>
          ))}
        </div>
      </fieldset>
      {vendors ? (
        <label>
          Vendor{" "}
          <select name="vendor" defaultValue={vendor ?? ""}>
            <option value="">All vendors</option>
            {vendors.map((v) => (
              <option key={v.slug} value={v.slug}>
                {v.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button type="submit">Show</button>{" "}
      <a href={`${action}?${QUIET_EDITS.map((k) => `kind=${k}`).join("&")}${vendor ? `&vendor=${vendor}` : ""}`}>Only quiet edits</a>
    </form>
  );
}
