
/** "Newer" goes back to the first page (cursors only go forward); "Older" continues. */
export function Pager({ basePath, params, next, isFirst }: { basePath: string; params: Record<string, string | string[] | undefined>; next: string | null; isFirst: boolean }) {
  const query = (extra: Record<string, string>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (key === "before" || value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
    }
    for (const [key, value] of Object.entries(extra)) search.set(key, value);
    const text = search.toString();
    return text ? `${basePath}?${text}` : basePath;
  };
  if (isFirst && !next) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {!isFirst ? <a href={query({})}>← Newest</a> : <span />}
      {next ? <a href={query({ before: next })} rel="next">Older →</a> : null}
    </nav>
  );
}
