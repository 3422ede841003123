import type { PollProblem } from "@/lib/poll-problems";

/** Rows per page of the polling and sources tables: a thousand vendors make a page no one scrolls. */
const ROWS_PER_PAGE = 50;
const VENDORS_NAMED = 8;

export type Query = Record<string, string | string[] | undefined>;

export function pageNumber(query: Query, name: string, rows: number): number {
  const last = Math.max(1, Math.ceil(rows / ROWS_PER_PAGE));
  const asked = Number(query[name]);
  return Number.isInteger(asked) && asked >= 1 ? Math.min(asked, last) : 1;
}

export function pageOf<T>(rows: readonly T[], page: number): readonly T[] {
  return rows.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
}

/** Links to the previous and next rows of a long operator table, keeping the other tables' pages. */
export function RowPages({ query, name, page, rows, label }: { query: Query; name: string; page: number; rows: number; label: string }) {
  const last = Math.ceil(rows / ROWS_PER_PAGE);
  if (last <= 1) return null;
  const href = (n: number) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (typeof value === "string" && key !== name && key !== "signin") search.set(key, value);
    if (n > 1) search.set(name, String(n));
    const text = search.toString();
    return text ? `/operator?${text}#${name}-heading` : `/operator#${name}-heading`;
  };
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? <a href={href(page - 1)}>← Rows {(page - 2) * ROWS_PER_PAGE + 1}–{(page - 1) * ROWS_PER_PAGE}</a> : <span />}
      <span className="muted">
        Rows {(page - 1) * ROWS_PER_PAGE + 1}–{Math.min(rows, page * ROWS_PER_PAGE)} of {rows}
      </span>
      {page < last ? <a href={href(page + 1)} rel="next">Rows {page * ROWS_PER_PAGE + 1}–{Math.min(rows, (page + 1) * ROWS_PER_PAGE)} →</a> : <span />}
    </nav>
  );
}

/** Each problem once, with how many vendors have it and the first few of them. */
export function PollProblemList({ problems }: { problems: readonly PollProblem[] }) {
  return (
    <ul className="poll-problems">
      {problems.map((p) => (
        <li key={`${p.outcome} ${p.problem}`} data-problem={p.outcome}>
          <span className="health-failed">{p.outcome}</span> <code>{p.problem}</code>:{" "}
          <strong>{p.vendors.length === 1 ? "1 vendor" : `${p.vendors.length} vendors`}</strong>{" "}
          <span className="muted">
            ({p.vendors.slice(0, VENDORS_NAMED).map((v) => v.name).join(", ")}
            {p.vendors.length > VENDORS_NAMED ? ` and ${p.vendors.length - VENDORS_NAMED} more` : ""})
          </span>
        </li>
      ))}
    </ul>
  );
}
