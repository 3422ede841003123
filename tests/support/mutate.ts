/** Deterministic hostile variants of a snapshot body: same body and seed, same variants. */

export type MutationKind =
  | "truncate" | "remove-field" | "retype" | "huge-string" | "invalid-utf8" | "deep-nesting" | "empty" | "bom" | "byte-flip";

export interface MutatedSnapshot {
  kind: MutationKind;
  /** What was done, to find the variant again from a failure report. */
  note: string;
  body: Uint8Array;
}

export const HUGE_STRING_LENGTH = 5 * 1024 * 1024;
export const NESTING_DEPTH = 10_000;

const CHEAP: readonly MutationKind[] = [
  "truncate", "retype", "remove-field", "byte-flip", "invalid-utf8", "retype", "remove-field", "truncate",
  "retype", "byte-flip", "remove-field", "empty", "retype", "truncate", "invalid-utf8", "bom",
];
const HEAVY: readonly MutationKind[] = ["huge-string", "deep-nesting"];
export const MUTATION_KINDS: readonly MutationKind[] = [...new Set([...CHEAP, ...HEAVY])];

const INVALID_UTF8 = [[0xff], [0xc3, 0x28], [0xe2, 0x28, 0xa1], [0xed, 0xa0, 0x80], [0xf0, 0x28, 0x8c, 0x28], [0xc0, 0xaf], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];
const EMPTY_BODIES = ["", " \n\t ", "\uFEFF", "null", "{}", "[]", "<?xml version=\"1.0\"?>", "<html></html>"];
// Beside plain garbage, edge times: the last instant a Date holds (in s and ms), years past 9999 and before 1000.
const ODD_TEXT = [
  "", " ", "0", "-1", "NaN", "null", "[]", "99999999999999999999", "8640000000000", "8640000000000000",
  "9999-12-31T23:59:59Z", "+275760-09-13T00:00:00.000Z", "0001-01-01T00:00:00Z", "0999-12-31T23:59:59Z",
  "9999-12-31T23:59:59-12:00", "2024-02-30T25:61:00Z", "Feb 30, 25:61 XYZ", "&amp;&lt;&#0;", "\u0000\uFFFD\uD800",
];
const RETYPED: readonly unknown[] = [...ODD_TEXT, 0, -1, 1.5, 1e21, -1e308, 8_640_000_000_000, Number.MAX_SAFE_INTEGER + 2, true, null, [], {}, [1, "a", null], { a: null }];
const HUGE_FILLS = ["x", " ", "<p>", "9", "a\\"];
const NEST_MARK = "__redline_nest__";

interface Random {
  int(max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: small, fast and good enough to spread mutations. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return {
    int,
    pick<T>(items: readonly T[]): T {
      const item = items[int(items.length)];
      if (item === undefined) throw new Error("pick from an empty list");
      return item;
    },
  };
}

type Container = Record<string, unknown> | unknown[];
interface Slot {
  container: Container;
  key: string | number;
}

/** Every (container, key) of a JSON document, walked iteratively so deep input cannot overflow. */
function collectSlots(root: unknown): Slot[] {
  const slots: Slot[] = [];
  const stack: unknown[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (typeof node !== "object" || node === null) continue;
    const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [key, value] of entries) {
      slots.push({ container: node as Container, key });
      stack.push(value);
    }
  }
  return slots;
}

function read(slot: Slot): unknown {
  return Array.isArray(slot.container) ? slot.container[slot.key as number] : slot.container[slot.key as string];
}

function write(slot: Slot, value: unknown): void {
  if (Array.isArray(slot.container)) slot.container[slot.key as number] = value;
  else slot.container[slot.key as string] = value;
}

function typeOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** About HUGE_STRING_LENGTH characters as written into the body (escaped for markup). */
function hugeString(rng: Random, markup: boolean): string {
  const pick = rng.pick(HUGE_FILLS);
  const fill = markup ? escapeMarkup(pick) : pick;
  return fill.repeat(Math.ceil(HUGE_STRING_LENGTH / fill.length));
}

function nested(text: boolean): string {
  return text ? "<div>".repeat(NESTING_DEPTH) + "x" + "</div>".repeat(NESTING_DEPTH) : "[".repeat(NESTING_DEPTH) + "]".repeat(NESTING_DEPTH);
}

/** A structural mutation of a parsed JSON document, undone once it is serialized. */
function mutateJson(root: unknown, slots: readonly Slot[], kind: MutationKind, rng: Random): { text: string; note: string } {
  const slot = rng.pick(slots);
  const original = read(slot);
  const where = `at key ${JSON.stringify(slot.key)}`;
  let note: string;
  let restore = () => write(slot, original);
  if (kind === "remove-field") {
    note = `removed ${where}`;
    if (Array.isArray(slot.container)) {
      const list = slot.container;
      const index = slot.key as number;
      list.splice(index, 1);
      restore = () => list.splice(index, 0, original);
    } else Reflect.deleteProperty(slot.container, slot.key);
  } else if (kind === "retype") {
    const value = rng.pick(RETYPED.filter((v) => v !== original));
    note = `${typeOf(original)} → ${JSON.stringify(value)} ${where}`;
    write(slot, value);
  } else if (kind === "huge-string") {
    const value = hugeString(rng, false);
    note = `${value.length}-char string of ${JSON.stringify(value.slice(0, 3))} ${where}`;
    write(slot, value);
  } else {
    note = `${NESTING_DEPTH} nested arrays ${where}`;
    write(slot, NEST_MARK);
  }
  const serialized = JSON.stringify(root);
  restore();
  const text = kind === "deep-nesting" ? serialized.replace(`"${NEST_MARK}"`, () => nested(false)) : serialized;
  return { text, note };
}

const OPEN_TAG = /<([A-Za-z][\w:.-]*)\b[^<>]*?(\/?)>/g;
const ATTRIBUTE_VALUE = /\s[\w:.-]+="([^"<>]*)"/g;

interface Markup {
  text: string;
  tags: RegExpExecArray[];
  attributes: RegExpExecArray[];
}

function readMarkup(text: string): Markup {
  return {
    text,
    tags: [...text.matchAll(OPEN_TAG)].filter((m) => m[2] === ""),
    attributes: [...text.matchAll(ATTRIBUTE_VALUE)],
  };
}

/**
 * The same mutations on markup (feeds, pages): elements cut out, their text or an attribute
 * replaced, text stuffed with a huge string (escaped: it is text, not millions of elements).
 */
function mutateMarkup(markup: Markup, kind: MutationKind, rng: Random): { text: string; note: string } | null {
  const { text, tags, attributes } = markup;
  if (tags.length === 0) return null;
  if (kind === "retype" && attributes.length > 0 && rng.int(2) === 0) {
    const attribute = rng.pick(attributes);
    const valueStart = (attribute.index ?? 0) + attribute[0].length - 1 - (attribute[1] ?? "").length;
    const value = escapeMarkup(rng.pick(ODD_TEXT)).replace(/"/g, "&quot;");
    return { text: text.slice(0, valueStart) + value + text.slice(valueStart + (attribute[1] ?? "").length), note: `${attribute[0].trim()} → ${JSON.stringify(value)}` };
  }
  const tag = rng.pick(tags);
  const name = tag[1] ?? "";
  const start = tag.index ?? 0;
  const innerStart = start + tag[0].length;
  const close = text.indexOf(`</${name}>`, innerStart);
  const innerEnd = close === -1 ? innerStart : close;
  const end = close === -1 ? innerStart : close + name.length + 3;
  if (kind === "remove-field") return { text: text.slice(0, start) + text.slice(end), note: `removed <${name}> at ${start}` };
  let inner: string;
  let note: string;
  if (kind === "retype") {
    inner = rng.pick([...ODD_TEXT.map(escapeMarkup), "<nested><x>1</x></nested>", "<![CDATA[<b>]]>"]);
    note = `<${name}> text → ${JSON.stringify(inner)}`;
  } else if (kind === "huge-string") {
    inner = hugeString(rng, true);
    note = `${inner.length}-char text of ${JSON.stringify(inner.slice(0, 6))} in <${name}>`;
  } else {
    const escaped = rng.int(2) === 0;
    inner = escaped ? escapeMarkup(nested(true)) : nested(true);
    note = `${NESTING_DEPTH} nested ${escaped ? "escaped " : ""}<div> in <${name}>`;
  }
  return { text: text.slice(0, innerStart) + inner + text.slice(innerEnd), note };
}

function splice(body: Uint8Array, at: number, insert: readonly number[], remove = 0): Uint8Array {
  const out = new Uint8Array(body.length + insert.length - remove);
  out.set(body.subarray(0, at));
  out.set(insert, at);
  out.set(body.subarray(at + remove), at + insert.length);
  return out;
}

function mutateBytes(body: Uint8Array, kind: MutationKind, rng: Random): MutatedSnapshot {
  if (kind === "truncate") {
    const at = rng.int(body.length);
    return { kind, note: `cut at byte ${at} of ${body.length}`, body: body.slice(0, at) };
  }
  if (kind === "empty") {
    const text = rng.pick(EMPTY_BODIES);
    return { kind, note: `body ${JSON.stringify(text)}`, body: new TextEncoder().encode(text) };
  }
  if (kind === "bom") {
    const bom = rng.int(3);
    if (bom === 2) {
      const utf16 = Buffer.from(`\uFEFF${Buffer.from(body).toString("utf8")}`, "utf16le");
      return { kind, note: "re-encoded as UTF-16LE with a BOM", body: new Uint8Array(utf16) };
    }
    return { kind, note: bom === 0 ? "UTF-8 BOM" : "two UTF-8 BOMs", body: splice(body, 0, bom === 0 ? [0xef, 0xbb, 0xbf] : [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]) };
  }
  let out = body;
  const positions: number[] = [];
  for (let n = 1 + rng.int(kind === "byte-flip" ? 8 : 3); n > 0; n -= 1) {
    const at = rng.int(out.length + 1);
    positions.push(at);
    if (kind === "invalid-utf8") out = splice(out, at, rng.pick(INVALID_UTF8));
    else if (at < out.length) out = splice(out, at, [(out[at] ?? 0) ^ (1 + rng.int(255))], 1);
  }
  return { kind, note: `${kind === "byte-flip" ? "flipped" : "invalid UTF-8 spliced in"} at ${positions.join(", ")}`, body: out };
}

/**
 * `count` variants of one snapshot body: `heavy` of them (spread evenly) stuff in a 5 MB string or
 * 10,000 levels of nesting, the rest cycle through the cheap kinds. JSON and markup are mutated by
 * structure, other bodies byte by byte.
 */
export function* mutateSnapshot(body: Uint8Array, options: { seed: number; count: number; heavy: number }): Generator<MutatedSnapshot> {
  const rng = createRandom(options.seed);
  const text = Buffer.from(body).toString("utf8");
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    root = undefined;
  }
  const slots = root === undefined ? [] : collectSlots(root);
  const markup = slots.length > 0 ? null : readMarkup(text);
  const heavyAt = new Map(
    Array.from({ length: Math.min(options.heavy, options.count) }, (_, k) => [Math.floor(((k + 0.5) * options.count) / options.heavy), k]),
  );
  let cheap = 0;
  for (let i = 0; i < options.count; i += 1) {
    const heavy = heavyAt.get(i);
    const kind = heavy !== undefined ? (HEAVY[heavy % HEAVY.length] ?? "huge-string") : (CHEAP[cheap++ % CHEAP.length] ?? "truncate");
    const structural = kind === "remove-field" || kind === "retype" || kind === "huge-string" || kind === "deep-nesting";
    const mutated = !structural ? null : root !== undefined && slots.length > 0 ? mutateJson(root, slots, kind, rng) : markup && mutateMarkup(markup, kind, rng);
    if (mutated) yield { kind, note: mutated.note, body: new TextEncoder().encode(mutated.text) };
    else yield mutateBytes(body, structural ? "byte-flip" : kind, rng);
  }
}
