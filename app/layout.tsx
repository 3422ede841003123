import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Redline", template: "%s · Redline" },
  description: "Every version of every vendor status-page incident, and exactly what changed.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <Link href="/" className="brand">Redline</Link>
          <span className="tagline">Vendor incidents, every version, every edit.</span>
        </header>
        <main id="main">{children}</main>
        <footer className="site-footer">Redline archives public status pages. Summaries are machine-written from the diff.</footer>
      </body>
    </html>
  );
}
