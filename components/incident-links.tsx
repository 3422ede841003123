import { paths, safeHttpUrl } from "@/lib/incident-key";

/** All <Vendor> changes · <Vendor> profile · Markdown · JSON */
export function IncidentLinks({ vendor, providerId, seq }: { vendor: { slug: string; name: string }; providerId: string; seq?: number }) {
  const md = seq === undefined ? paths.incidentExport(vendor.slug, providerId, "md") : paths.versionExport(vendor.slug, providerId, seq, "md");
  const json = seq === undefined ? paths.incidentExport(vendor.slug, providerId, "json") : paths.versionExport(vendor.slug, providerId, seq, "json");
  return (
    <p className="links">
      <a href={paths.vendorChanges(vendor.slug)}>All {vendor.name} changes →</a> · <a href={paths.vendor(vendor.slug)}>{vendor.name} profile</a> ·{" "}
      <a href={md}>Markdown</a> · <a href={json}>JSON</a>
    </p>
  );
}

/** "First version archived by Redline on …" with the live incident one click away. */
export function FirstArchived({ firstSeenAt, url: vendorUrl }: { firstSeenAt: string; url: string | null }) {
  const url = safeHttpUrl(vendorUrl);
  return (
    <p className="first-archived">
      First version archived by Redline on <time dateTime={firstSeenAt}>{firstSeenAt.slice(0, 16).replace("T", " ")} UTC</time>.
      {url ? (
        <>
          {" "}
          <a href={url} rel="nofollow noopener noreferrer" target="_blank">
            View the live incident<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </>
      ) : null}
    </p>
  );
}
