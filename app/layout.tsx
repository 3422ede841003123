import type { Metadata, Viewport } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Redline", template: "%s · Redline" },
  description: "Every version of every vendor status-page incident, and exactly what changed.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">Skip to content</a>
        <header className="site-header">
          <Link href="/" className="brand">Redline</Link>
          <nav aria-label="Main">
            <ul>
              <li><Link href="/">Changes</Link></li>
              <li><Link href="/vendors">Vendors</Link></li>
              <li><Link href="/search">Search</Link></li>
            </ul>
          </nav>
        </header>
        <main id="main" tabIndex={-1}>{children}</main>
        <footer className="site-footer">
          Redline archives public status pages and keeps every version. Summaries are machine-written from the diff; the diff is the record.
        </footer>
      </body>
    </html>
  );
}
