import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { SiteChrome } from "@/components/site-chrome";
import { SITE_DESCRIPTION } from "@/lib/render/site-frame";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Redline", template: "%s · Redline" },
  description: SITE_DESCRIPTION,
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SiteChrome>{children}</SiteChrome>
      </body>
    </html>
  );
}
