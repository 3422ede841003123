import type { ReactNode } from "react";
import type { FeedAlternate } from "@/components/feed-links";
import { SiteChrome } from "@/components/site-chrome";
import { SITE_DESCRIPTION } from "@/lib/render/site-frame";

/**
 * A whole page as app/layout.tsx frames it, for the pages the web server renders without Next
 * (server/archive-pages.tsx): the same head (title, description, viewport, icon, stylesheets, feed
 * alternates) and the same chrome, and no script at all.
 */
export function HtmlDocument({ title, stylesheets, alternates, notice = null, children }: {
  title: string;
  stylesheets: readonly string[];
  alternates: readonly FeedAlternate[];
  /** The banner saying every poll fails, while one does. */
  notice?: string | null;
  children: ReactNode;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Redline`}</title>
        <meta name="description" content={SITE_DESCRIPTION} />
        <link rel="icon" href="/icon.svg" type="image/svg+xml" sizes="any" />
        {stylesheets.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        {alternates.map((a) => <link key={a.type} rel="alternate" type={a.type} href={a.href} title={a.title} />)}
      </head>
      <body>
        <SiteChrome notice={notice}>{children}</SiteChrome>
      </body>
    </html>
  );
}
