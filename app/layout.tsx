import type { Metadata, Viewport } from "next";
import { PHASE_PRODUCTION_BUILD } from "next/constants";
import type { ReactNode } from "react";
import { SiteChrome } from "@/components/site-chrome";
import { readPollingNotice } from "@/db/queries/poll-outcomes";
import { getServerDb } from "@/db/driver/server-db";
import { errorMessage } from "@/lib/error-message";
import { SITE_DESCRIPTION } from "@/lib/render/site-frame";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Redline", template: "%s · Redline" },
  description: SITE_DESCRIPTION,
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

/** The banner saying every poll fails; a page is still served when it cannot be read. */
async function pollingNotice(): Promise<string | null> {
  // Never read at build time: there are no pollers then, and a layout that reads nothing lets the
  // build prerender the not-found page, from which the server takes the site's stylesheets for the
  // pages it renders itself (server/http/built-stylesheets.ts). Every other page is rendered per
  // request (they read the archive), so they read the pollers' outcomes as they are.
  if (process.env.NEXT_PHASE === PHASE_PRODUCTION_BUILD) return null;
  try {
    return await readPollingNotice(getServerDb());
  } catch (error) {
    console.error(`web: unable to read the pollers' outcomes for the banner: ${errorMessage(error)}`);
    return null;
  }
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const notice = await pollingNotice();
  return (
    <html lang="en">
      <body>
        <SiteChrome notice={notice}>{children}</SiteChrome>
      </body>
    </html>
  );
}
