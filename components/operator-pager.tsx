import type { PageOf } from "@/lib/paginate";

/** "Vendors 51–100 of 156" with the pages before and after, for the operator's long tables. */
export function OperatorPager({ page, noun, anchor }: { page: PageOf<unknown>; noun: string; anchor: string }) {
  const href = (n: number) => (n === 1 ? `/operator#${anchor}` : `/operator?page=${n}#${anchor}`);
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`}>
      {page.page > 1 ? <a href={href(page.page - 1)} rel="prev">← Previous</a> : <span />}
      <span className="muted">
        {noun.charAt(0).toUpperCase() + noun.slice(1)} {page.first}–{page.last} of {page.total}
        {page.pages > 1 ? `, page ${page.page} of ${page.pages}` : ""}
      </span>
      {page.page < page.pages ? <a href={href(page.page + 1)} rel="next">Next →</a> : <span />}
    </nav>
  );
}
