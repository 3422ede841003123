
export default function NotFound() {
  return (
    <section aria-labelledby="not-found-heading">
      <h1 id="not-found-heading">Not found</h1>
      <p>There is nothing at this address. The link may be mistyped or cut short, or name a vendor, incident or version this archive does not have.</p>
      <p>
        See the <a href="/">latest changes</a>, <a href="/vendors">all vendors</a>, or <a href="/search">search</a> every archived version.
      </p>
    </section>
  );
}
