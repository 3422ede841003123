import type { EmptyHome } from "@/lib/home-empty";

/** The home page's empty list, in the words lib/home-empty.ts chose. */
export function HomeEmptyList({ empty }: { empty: EmptyHome }) {
  return (
    <div className="empty-list" data-empty-list="">
      <p>{empty.text}</p>
      {empty.command ? <pre><code>{empty.command}</code></pre> : null}
      {empty.link ? <p><a href={empty.link.href}>{empty.link.label}</a></p> : null}
    </div>
  );
}
