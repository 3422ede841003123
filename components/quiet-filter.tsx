import { VendorSelect } from "@/components/vendor-select";

/**
 * The quiet degradations' filter, a plain GET form like the kinds' one: a vendor, and a component
 * group (a CDN's "Europe" data centres, say), which a routine stream of one region can be left out by.
 */
export function QuietFilter({ vendors, vendor, groups, group }: {
  vendors: ReadonlyArray<{ slug: string; name: string }>; vendor?: string;
  /** The group names to pick from, as listed now. */
  groups: readonly string[]; group?: string;
}) {
  const options = group && !groups.includes(group) ? [group, ...groups] : groups;
  return (
    <form className="filters filters-compact" method="get" action="/" role="search" aria-label="Filter quiet degradations">
      <input type="hidden" name="show" value="degradations" />
      <VendorSelect vendors={vendors} vendor={vendor} />
      <label>
        Component group{" "}
        <select name="group" defaultValue={group ?? ""}>
          <option value="">All groups</option>
          {options.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Show</button>
    </form>
  );
}
