"use client";

import Link from "next/link";

/** A page that failed to render, inside the site's layout: what happened and where to go, never a stack trace. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section aria-labelledby="error-heading">
      <h1 id="error-heading">This page could not be shown</h1>
      <p>Redline failed to put this page together. The archive itself is unharmed; the failure is in the server&apos;s log{error.digest ? <> as <code>{error.digest}</code></> : null}.</p>
      <p>
        <button type="button" onClick={reset}>Try again</button> or see the <Link href="/">latest changes</Link>, <Link href="/vendors">all vendors</Link>, or{" "}
        <Link href="/search">search</Link>.
      </p>
    </section>
  );
}
