import type { Metadata } from "next";
import { paths } from "@/lib/incident-key";

type FeedPath = (format: "atom" | "rss" | "json") => string;

export interface FeedAlternate {
  type: "application/atom+xml" | "application/rss+xml" | "application/feed+json";
  href: string;
  title: string;
}

/** A page's feeds as `<link rel="alternate">`, so readers and browsers discover them. */
export function feedAlternateLinks(feedPath: FeedPath, title: string): FeedAlternate[] {
  return [
    { type: "application/atom+xml", href: feedPath("atom"), title: `${title} (Atom)` },
    { type: "application/rss+xml", href: feedPath("rss"), title: `${title} (RSS)` },
    { type: "application/feed+json", href: feedPath("json"), title: `${title} (JSON Feed)` },
  ];
}

/** Feed links as Next's metadata, for pages Next renders. */
export function alternatesMetadata(links: readonly FeedAlternate[]): NonNullable<Metadata["alternates"]> {
  return { types: Object.fromEntries(links.map((a) => [a.type, [{ url: a.href, title: a.title }]])) };
}

export function feedAlternates(feedPath: FeedPath, title: string): NonNullable<Metadata["alternates"]> {
  return alternatesMetadata(feedAlternateLinks(feedPath, title));
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
