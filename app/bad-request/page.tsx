import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Bad request" };
export const dynamic = "force-dynamic";

export default async function BadRequestPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const reason = typeof params.reason === "string" ? params.reason : "the query parameters are not valid";
  const path = typeof params.path === "string" && params.path.startsWith("/") ? params.path : "/";
  return (
    <section aria-labelledby="bad-request-heading">
      <h1 id="bad-request-heading">Bad request</h1>
      <p>
        The address has a query parameter this page does not accept: <strong>{reason}</strong>.
      </p>
      <p>
        <Link href={path}>Open {path} without the parameters</Link> or go to the <Link href="/">latest changes</Link>.
      </p>
    </section>
  );
}
