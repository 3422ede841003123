import { describeQuietDegradation, foldedNames, QUIET_DEGRADATION_LABEL, type QuietDegradationView } from "@/lib/components/quiet-degradation";
import { paths } from "@/lib/incident-key";
import { escapeHtml } from "@/lib/render/change-html";
import { type FeedItem, quietDegradationItemId } from "@/lib/render/feed";

/** A feed entry lists this many components by name; a CDN's hundreds are counted. */
const LISTED = 50;

/**
 * A quiet degradation as a feed entry: published when it began, updated when it ended, under an
 * id its end does not change, so a reader shows one entry and refreshes it. Every vendor text is
 * escaped; the links are Redline's own.
 */
export function quietDegradationItem(origin: string, view: QuietDegradationView): FeedItem {
  const slug = view.vendor.slug;
  const link = `${origin}${paths.vendorStatusAt(slug, view.from)}`;
  const summary = describeQuietDegradation(view);
  const listed = view.components.slice(0, LISTED).map((c) => {
    const group = c.group === null ? "" : ` <small>(${escapeHtml(c.group)})</small>`;
    return `<li><a href="${escapeHtml(`${origin}${paths.component(slug, c.id)}`)}">${escapeHtml(c.name)}</a>${group}</li>`;
  });
  const more = view.components.length - listed.length;
  const html =
    `<p>${escapeHtml(summary)}</p>` +
    `<ul>${listed.join("")}</ul>` +
    (more > 0 ? `<p>… and ${more} more</p>` : "") +
    `<p><a href="${escapeHtml(link)}">The status page as it was when it began</a></p>`;
  return {
    id: quietDegradationItemId(slug, view.from),
    title: `${view.vendor.name}: ${QUIET_DEGRADATION_LABEL}: ${foldedNames(view.components)}`,
    link,
    summary,
    html,
    published: view.from,
    updated: view.until ?? view.from,
  };
}
