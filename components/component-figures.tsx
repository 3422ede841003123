import type { ComponentFigures } from "@/lib/components/component-figures";
import { describeDegraded, describeLag, describeQuiet, describeWatched } from "@/lib/components/figure-text";
import { formatDuration } from "@/lib/format";
import { paths } from "@/lib/incident-key";

/** Components shown by name per group; past this, "and N more". */
const NAMED_PER_GROUP = 12;

/** The component figures as entries of the vendor page's figures list. */
export function ComponentFigureItems({ figures }: { figures: ComponentFigures | null }) {
  return (
    <>
      <div><dt>Component grid watched</dt><dd className="figure-text">{describeWatched(figures)}</dd></div>
      <div><dt>Time degraded or out</dt><dd className="figure-text">{describeDegraded(figures)}</dd></div>
      <div><dt>Quiet degradations</dt><dd className={figures?.known && figures.quietDegradations !== null ? undefined : "figure-text"}>{describeQuiet(figures)}</dd></div>
      <div><dt>Median acknowledgment lag</dt><dd className="figure-text">{describeLag(figures)}</dd></div>
    </>
  );
}

/** Each group of the vendor's grid: its components (each a link to its page) and the time some of them were degraded or out. */
export function ComponentGroupsTable({ figures, vendorSlug, vendorName, periodLabel }: { figures: ComponentFigures | null; vendorSlug: string; vendorName: string; periodLabel: string }) {
  if (!figures?.known || figures.groups.length === 0) return null;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">{vendorName} components by group, {periodLabel}: time degraded or out, of the time Redline watched the grid</caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Components</th>
            <th scope="col">Degraded or out</th>
            <th scope="col">Out</th>
          </tr>
        </thead>
        <tbody>
          {figures.groups.map((g) => (
            <tr key={g.key ?? ""}>
              <th scope="row">{g.key === null ? <span className="muted">No group</span> : <a href={paths.component(vendorSlug, g.key)}>{g.name}</a>}</th>
              <td data-label="Components">
                {g.components.length === 0 ? <span className="muted">none listed</span> : null}
                {g.components.slice(0, NAMED_PER_GROUP).map((c, i) => (
                  <span key={c.key}>
                    {i > 0 ? ", " : ""}
                    <a href={paths.component(vendorSlug, c.key)}>{c.name}</a>
                  </span>
                ))}
                {g.components.length > NAMED_PER_GROUP ? <span className="muted"> and {g.components.length - NAMED_PER_GROUP} more</span> : null}
              </td>
              <td data-label="Degraded or out">{describeDegraded(figures, g, { outage: false })}</td>
              <td data-label="Out" className="nowrap">{g.share === null ? <span className="muted">not watched</span> : formatDuration(g.outageMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
