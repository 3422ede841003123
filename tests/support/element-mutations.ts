/**
 * Breaking one element of one incident in a snapshot, the way vendors' formats drift: a field of
 * the wrong type, a timestamp nobody can read, an unknown enum word, a nested item (update,
 * component, product) that is garbage or lost its id, a feed item without its link or with an
 * unreadable date, and the whole element unreadable.
 */

export interface ElementMutation {
  /** What was broken, e.g. "impact: unknown word". */
  kind: string;
  /** Whether the incident can no longer be identified (its id is gone with it). */
  unidentifiable: boolean;
  /** It removes elements a format may legitimately leave out: reading it differently is not an error then. */
  optional?: boolean;
  apply(body: Uint8Array, path: string): Uint8Array | null;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** "incidents[3]" / "[3]" / "data[2]" as keys. */
export function parsePath(path: string): Array<string | number> {
  const keys: Array<string | number> = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) keys.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? ""));
  return keys;
}

function locate(root: Json, path: string): { parent: Json[] | { [key: string]: Json }; key: string | number } | null {
  const keys = parsePath(path);
  const last = keys.pop();
  if (last === undefined) return null;
  let node: Json = root;
  for (const key of keys) {
    if (typeof key === "number" && Array.isArray(node)) node = node[key] ?? null;
    else if (typeof key === "string" && node !== null && typeof node === "object" && !Array.isArray(node)) node = node[key] ?? null;
    else return null;
  }
  if (node === null || typeof node !== "object") return null;
  return { parent: node, key: last };
}

function editJson(body: Uint8Array, path: string, edit: (element: Json) => Json | undefined): Uint8Array | null {
  let root: Json;
  try {
    root = JSON.parse(Buffer.from(body).toString("utf8")) as Json;
  } catch {
    return null;
  }
  const at = locate(root, path);
  if (!at) return null;
  const current = Array.isArray(at.parent) ? at.parent[at.key as number] : (at.parent as Record<string, Json>)[at.key as string];
  if (current === undefined) return null;
  const next = edit(current);
  if (next === undefined) return null;
  if (Array.isArray(at.parent)) at.parent[at.key as number] = next;
  else (at.parent as Record<string, Json>)[at.key as string] = next;
  return Buffer.from(JSON.stringify(root));
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** Fields whose words are a closed set: an unknown one cannot be read. Statuses are free text. */
const ENUM_KEYS = new Set(["impact", "severity", "type", "status_impact"]);

/**
 * The mutations that apply to a JSON incident element: one per scalar field (wrong type, or an
 * unreadable time, or an unknown word), per nested list (its first item garbage, or without its
 * id), and the element as a whole.
 */
export function jsonMutations(element: unknown, idKeys: ReadonlySet<string>): ElementMutation[] {
  if (element === null || typeof element !== "object" || Array.isArray(element)) return [];
  const out: ElementMutation[] = [
    { kind: "element: unreadable", unidentifiable: true, apply: (body, path) => editJson(body, path, () => 42) },
  ];
  for (const [key, value] of Object.entries(element as Record<string, Json>)) {
    const onKey = (kind: string, edit: (v: Json) => Json | undefined, unidentifiable = false): ElementMutation => ({
      kind: `${key}: ${kind}`,
      unidentifiable,
      apply: (body, path) =>
        editJson(body, path, (el) => {
          if (el === null || typeof el !== "object" || Array.isArray(el) || !(key in el)) return undefined;
          const next = edit(el[key] ?? null);
          return next === undefined ? undefined : { ...el, [key]: next };
        }),
    });
    if (idKeys.has(key)) {
      out.push(onKey("wrong type", () => ({ bad: true }), true));
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length === 0 || typeof value[0] !== "object" || value[0] === null) continue;
      out.push(onKey("first item garbage", (v) => (Array.isArray(v) && v.length > 0 ? ["garbage", ...v.slice(1)] : undefined)));
      if (!Array.isArray(value[0]) && "id" in (value[0] as Record<string, Json>)) {
        out.push(onKey("first item without id", (v) => {
          if (!Array.isArray(v) || v.length === 0 || v[0] === null || typeof v[0] !== "object" || Array.isArray(v[0])) return undefined;
          const { id: _id, ...rest } = v[0];
          return [rest, ...v.slice(1)];
        }));
      }
      if (typeof value[0] === "object" && !Array.isArray(value[0])) {
        const timeKey = Object.entries(value[0] as Record<string, Json>).find(([, v]) => typeof v === "string" && ISO.test(v))?.[0];
        if (timeKey) {
          out.push(onKey(`first item's ${timeKey} unreadable`, (v) => {
            if (!Array.isArray(v) || v.length === 0 || v[0] === null || typeof v[0] !== "object" || Array.isArray(v[0])) return undefined;
            return [{ ...v[0], [timeKey]: "sometime last week" }, ...v.slice(1)];
          }));
        }
      }
      continue;
    }
    if (value !== null && typeof value === "object") continue;
    out.push(onKey("wrong type", () => ({ bad: true })));
    if (typeof value === "string" && ISO.test(value)) out.push(onKey("unreadable time", () => "sometime last week"));
    // A JSON:API resource's type says what it is, not a word of the vendor's vocabulary.
    const resource = "attributes" in (element as Record<string, Json>);
    if (typeof value === "string" && ENUM_KEYS.has(key) && !(key === "type" && resource)) out.push(onKey("unknown word", () => "apocalyptic"));
  }
  return out;
}

/** The i-th item (RSS) or entry (Atom) of a feed, as start and end offsets in its text. */
function feedItemSpan(xml: string, index: number): [number, number] | null {
  const opens = [...xml.matchAll(/<(item|entry)[\s>]/g)];
  const open = opens[index];
  if (!open || open.index === undefined) return null;
  const tag = open[1] ?? "item";
  const close = xml.indexOf(`</${tag}>`, open.index);
  return close < 0 ? null : [open.index, close + tag.length + 3];
}

function editFeedItem(body: Uint8Array, path: string, edit: (item: string) => string | null): Uint8Array | null {
  const index = parsePath(path)[1];
  if (typeof index !== "number") return null;
  const xml = Buffer.from(body).toString("utf8");
  const span = feedItemSpan(xml, index);
  if (!span) return null;
  const item = xml.slice(span[0], span[1]);
  const next = edit(item);
  if (next === null || next === item) return null;
  return Buffer.from(xml.slice(0, span[0]) + next + xml.slice(span[1]));
}

/** The mutations that apply to an RSS item or Atom entry (with `contentRequired`, losing its content is one). */
export function feedMutations(contentRequired: boolean): ElementMutation[] {
  const dates = /<(pubDate|published|updated|dc:date)>[^<]*<\/\1>/g;
  return [
    {
      kind: "item: without link, guid or id",
      unidentifiable: true,
      optional: true,
      apply: (body, path) => editFeedItem(body, path, (item) => item.replace(/<link[^>]*\/>|<link[^>]*>[^<]*<\/link>|<guid[^>]*>[^<]*<\/guid>|<id>[^<]*<\/id>/g, "")),
    },
    {
      kind: "item: unreadable dates",
      unidentifiable: false,
      apply: (body, path) => editFeedItem(body, path, (item) => (new RegExp(dates.source).test(item) ? item.replace(dates, "<$1>the day before yesterday</$1>") : null)),
    },
    ...(contentRequired
      ? [{
          kind: "item: content removed",
          unidentifiable: false,
          apply: (body: Uint8Array, path: string) => editFeedItem(body, path, (item) => item.replace(/<(content|description|content:encoded|summary)[^>]*>[\s\S]*?<\/\1>/g, "")),
        }]
      : []),
    {
      kind: "item: an update time with an unknown zone",
      unidentifiable: false,
      // Statuspage's history feeds: "&lt;small&gt;May 2, 10:00 UTC&lt;/small&gt;" in the entry's escaped HTML.
      apply: (body, path) => editFeedItem(body, path, (item) => {
        const next = item.replace(/(&lt;small&gt;[^&]*?\d{1,2}:\d{2})\s*([A-Z]{2,5})/, "$1 XYZT");
        return next === item ? null : next;
      }),
    },
  ];
}
