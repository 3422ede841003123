export interface PageOf<T> {
  items: T[];
  /** From 1; a page past the end is the last page. */
  page: number;
  pages: number;
  /** 1-based positions of the first and last item shown (0 and 0 when there are none). */
  first: number;
  last: number;
  total: number;
}

/** One page of a list already in memory; a requested page that is not a whole number from 1 is page 1. */
export function paginate<T>(all: readonly T[], requested: number, size: number): PageOf<T> {
  const pages = Math.max(1, Math.ceil(all.length / size));
  const page = Number.isInteger(requested) && requested >= 1 ? Math.min(requested, pages) : 1;
  const start = (page - 1) * size;
  const items = all.slice(start, start + size);
  return { items, page, pages, first: items.length ? start + 1 : 0, last: start + items.length, total: all.length };
}
