import { CHANGE_KIND_INFO, CHANGE_KIND_NAMES, type ChangeKindName } from "@/lib/change-kinds";
import { VendorSelect } from "@/components/vendor-select";
import { QUIET_EDIT_KINDS } from "@/lib/quiet-edits";

/**
 * A plain GET form: works without JavaScript, and its URL can be shared. The kinds' checkboxes
 * sit in a closed <details> unless some are picked, so the list stays at the top of the page.
 */
export function KindFilter({ action, selected, vendors, vendor, show, quietLink = false }: {
  action: string; selected: readonly ChangeKindName[]; vendors?: ReadonlyArray<{ slug: string; name: string }>; vendor?: string;
  /** The home tab to stay on when only the vendor is changed. */
  show?: string;
  quietLink?: boolean;
}) {
  const chosen = new Set(selected);
  return (
    <form className="filters filters-compact" method="get" action={action} role="search" aria-label="Filter changes">
      {show ? <input type="hidden" name="show" value={show} /> : null}
      {vendors ? <VendorSelect vendors={vendors} vendor={vendor} /> : null}
      <details className="kind-picker" open={selected.length > 0}>
        <summary>Kinds of change{selected.length > 0 ? ` (${selected.length} picked)` : ""}</summary>
        <fieldset>
          <legend className="visually-hidden">Kinds of change</legend>
          <div className="kind-options">
            {CHANGE_KIND_NAMES.map((kind) => (
              <label key={kind} title={CHANGE_KIND_INFO[kind].description}>
                <input type="checkbox" name="kind" value={kind} defaultChecked={chosen.has(kind)} /> {CHANGE_KIND_INFO[kind].label}
              </label>
            ))}
          </div>
        </fieldset>
      </details>
      <button type="submit">Show</button>
      {quietLink ? <a href={`${action}?${QUIET_EDIT_KINDS.map((k) => `kind=${k}`).join("&")}${vendor ? `&vendor=${vendor}` : ""}`}>Only quiet edits</a> : null}
    </form>
  );
}
