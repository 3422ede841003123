import type { ReactNode } from "react";
import { POLLING_NOTICE_ID, SITE_FOOTER, SITE_NAV } from "@/lib/render/site-frame";

/**
 * What every page has around its content: skip link, header with the site's navigation, footer,
 * and above the content the banner saying polling fails for every vendor (lib/poll-reachability.ts), while it does.
 */
export function SiteChrome({ children, notice = null }: { children: ReactNode; notice?: string | null }) {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="site-header">
        <a href="/" className="brand">Redline</a>
        <nav aria-label="Main">
          <ul>
            {SITE_NAV.map((item) => <li key={item.href}><a href={item.href}>{item.label}</a></li>)}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {notice === null ? null : <p id={POLLING_NOTICE_ID} className="notice polling-notice" role="status">{notice}</p>}
        {children}
      </main>
      <footer className="site-footer">{SITE_FOOTER}</footer>
    </>
  );
}
