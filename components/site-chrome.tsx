import type { ReactNode } from "react";
import { SITE_FOOTER, SITE_NAV } from "@/lib/render/site-frame";

/** What every page has around its content: skip link, header with the site's navigation, footer. */
export function SiteChrome({ children }: { children: ReactNode }) {
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
      <main id="main" tabIndex={-1}>{children}</main>
      <footer className="site-footer">{SITE_FOOTER}</footer>
    </>
  );
}
