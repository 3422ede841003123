/**
 * A compact patch between two JSON values, exact to the byte: applying it to the first gives a
 * value whose JSON text is the second's (key order included). Stored states and versions keep one
 * of these per step instead of repeating the whole document.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A patch node: a literal, an edit of an object with the same keys, or an array rebuilt from the old one's items. */
export type JsonPatch = { v: JsonValue } | { o: Record<string, JsonPatch> } | { a: ArrayItem[] };

/** An old item by index, a run of old items [start, count], a literal, or an old item patched. */
type ArrayItem = number | [number, number] | { v: JsonValue } | { i: number; p: JsonPatch };

export class JsonPatchError extends Error {
  readonly kind = "patch";
}

function isObject(v: JsonValue): v is { [key: string]: JsonValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

function diffNode(before: JsonValue, after: JsonValue): JsonPatch {
  if (isObject(before) && isObject(after)) {
    const keys = Object.keys(before);
    if (sameKeys(keys, Object.keys(after))) {
      const edits: Record<string, JsonPatch> = {};
      for (const k of keys) {
        const b = before[k] as JsonValue;
        const a = after[k] as JsonValue;
        if (JSON.stringify(b) !== JSON.stringify(a)) edits[k] = diffNode(b, a);
      }
      return { o: edits };
    }
  }
  if (Array.isArray(before) && Array.isArray(after)) return { a: diffArray(before, after) };
  return { v: after };
}

function diffArray(before: readonly JsonValue[], after: readonly JsonValue[]): ArrayItem[] {
  const texts = before.map((b) => JSON.stringify(b));
  const byText = new Map<string, number[]>();
  texts.forEach((t, i) => byText.set(t, [...(byText.get(t) ?? []), i]));
  const used = new Set<number>();
  const items: ArrayItem[] = [];
  after.forEach((a, j) => {
    const at = JSON.stringify(a);
    const index = (byText.get(at) ?? []).find((i) => !used.has(i));
    if (index !== undefined) {
      used.add(index);
      const last = items.at(-1);
      if (typeof last === "number" && last + 1 === index) items[items.length - 1] = [last, 2];
      else if (Array.isArray(last) && last[0] + last[1] === index) last[1] += 1;
      else items.push(index);
      return;
    }
    const same = before[j];
    if (same !== undefined && !used.has(j) && typeof same === "object" && same !== null && typeof a === "object" && a !== null) {
      items.push({ i: j, p: diffNode(same, a) });
    } else items.push({ v: a });
  });
  return items;
}

/** The patch that turns `before` into `after`; both must be plain JSON (as JSON.parse gives). */
export function diffJson(before: JsonValue, after: JsonValue): JsonPatch {
  if (JSON.stringify(before) !== JSON.stringify(after)) return diffNode(before, after);
  return isObject(before) ? { o: {} } : { v: after };
}

/** `before` with the patch applied; `before` is not modified (parts of it are shared). */
export function applyJsonPatch(before: JsonValue, patch: JsonPatch): JsonValue {
  if ("v" in patch) return patch.v;
  if ("o" in patch) {
    if (!isObject(before)) throw new JsonPatchError("patch: an object edit applied to a non-object");
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(before)) {
      const edit = patch.o[k];
      out[k] = edit === undefined ? v : applyJsonPatch(v, edit);
    }
    return out;
  }
  if (!Array.isArray(before)) throw new JsonPatchError("patch: an array edit applied to a non-array");
  const out: JsonValue[] = [];
  const old = (i: number): JsonValue => {
    const v = before[i];
    if (v === undefined) throw new JsonPatchError(`patch: no item ${i} to copy`);
    return v;
  };
  for (const item of patch.a) {
    if (typeof item === "number") out.push(old(item));
    else if (Array.isArray(item)) for (let i = item[0]; i < item[0] + item[1]; i += 1) out.push(old(i));
    else if ("v" in item) out.push(item.v);
    else out.push(applyJsonPatch(old(item.i), item.p));
  }
  return out;
}
