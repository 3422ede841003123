import type { Metadata } from "next";
import { paths } from "@/lib/incident-key";

type FeedPath = (format: "atom" | "rss" | "json") => string;

/** `<link rel="alternate">` for a page's feeds, so readers and browsers discover them. */
export function feedAlternates(feedPath: FeedPath, title: string): NonNullable<Metadata["alternates"]> {
  return {
    types: {
      "application/atom+xml": [{ url: feedPath("atom"), title: `${title} (Atom)` }],
      "application/rss+xml": [{ url: feedPath("rss"), title: `${title} (RSS)` }],
      "application/feed+json": [{ url: feedPath("json"), title: `${title} (JSON Feed)` }],
    },
  };
}

/** "Follow <what>: Atom · RSS · JSON Feed" */
export function FeedLinks({ feedPath, label }: { feedPath: FeedPath; label: string }) {
  return (
    <p className="feed-links">
      Follow {label}: <a href={feedPath("atom")} type="application/atom+xml">Atom</a> ·{" "}
      <a href={feedPath("rss")} type="application/rss+xml">RSS</a> · <a href={feedPath("json")} type="application/feed+json">JSON Feed</a>
    </p>
  );
}

/** The feed of a changes list as filtered: one kind gets its own address, several a query. */
export function changesFeedPath(filter: { vendorSlug?: string; kinds?: readonly string[] }): FeedPath {
  const kinds = filter.kinds ?? [];
  const slug = filter.vendorSlug;
  if (kinds.length === 1 && kinds[0]) {
    const kind = kinds[0];
    return (f) => (slug ? paths.vendorKindFeed(slug, kind, f) : paths.kindFeed(kind, f));
  }
  const query = kinds.length > 0 ? `?${kinds.map((k) => `kind=${encodeURIComponent(k)}`).join("&")}` : "";
  return (f) => `${slug ? paths.vendorFeed(slug, f) : paths.allFeed(f)}${query}`;
}
