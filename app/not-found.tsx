import Link from "next/link";

export default function NotFound() {
  return (
    <section aria-labelledby="not-found-heading">
      <h1 id="not-found-heading">Not found</h1>
      <p>Redline has no vendor, incident or version at this address.</p>
      <p>
        See the <Link href="/">latest changes</Link>, <Link href="/vendors">all vendors</Link>, or <Link href="/search">search</Link>.
      </p>
    </section>
  );
}
