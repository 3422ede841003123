import { describe, expect, it } from "vitest";
import { applyJsonPatch, diffJson, type JsonValue } from "@/lib/json-patch";

function roundTrip(before: JsonValue, after: JsonValue): { text: string; patch: string } {
  const patch = JSON.stringify(diffJson(before, after));
  return { text: JSON.stringify(applyJsonPatch(JSON.parse(JSON.stringify(before)) as JsonValue, JSON.parse(patch))), patch };
}

describe("json patch", () => {
  const cases: Array<[string, JsonValue, JsonValue]> = [
    ["a changed scalar field", { a: 1, b: "x" }, { a: 1, b: "y" }],
    ["keys in another order", { a: 1, b: 2 }, { b: 2, a: 1 }],
    ["a key added and one removed", { a: 1, b: 2 }, { a: 1, c: 3 }],
    ["an update prepended to a list", { u: [{ id: "1", t: "x" }, { id: "2", t: "y" }] }, { u: [{ id: "0", t: "new" }, { id: "1", t: "x" }, { id: "2", t: "y" }] }],
    ["a list reordered with a duplicate", { u: [1, 2, 2, 3] }, { u: [3, 2, 1, 2, 2] }],
    ["an item edited in place", { u: [{ id: "1", body: "old", at: "t" }] }, { u: [{ id: "1", body: "new", at: "t" }] }],
    ["numeric-looking keys", { "10": "a", "2": "b", x: 1 }, { "10": "a", "2": "c", x: 1 }],
    ["null to an object", { p: null }, { p: { body: "pm" } }],
    ["identical scalars", 5, 5],
    ["identical arrays", [1, 2], [1, 2]],
    ["array to object", [1], { a: 1 }],
  ];
  for (const [name, before, after] of cases) {
    it(`rebuilds the exact JSON text after ${name}`, () => {
      expect(roundTrip(before, after).text).toBe(JSON.stringify(after));
    });
  }

  it("keeps a long list of unchanged items as one run, not a copy", () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ id: String(i), body: `update ${i} `.repeat(20) }));
    const { patch } = roundTrip({ updates: items }, { updates: [...items, { id: "40", body: "resolved" }] });
    expect(patch).toBe('{"o":{"updates":{"a":[[0,40],{"v":{"id":"40","body":"resolved"}}]}}}');
  });

  it("does not change the value it patches", () => {
    const before = { a: [1, { b: 2 }] } as JsonValue;
    const frozen = JSON.stringify(before);
    applyJsonPatch(before, diffJson(before, { a: [{ b: 3 }, 1] }));
    expect(JSON.stringify(before)).toBe(frozen);
  });

  it("refuses a patch that does not fit the value", () => {
    expect(() => applyJsonPatch([1], { o: { a: { v: 1 } } })).toThrow(/non-object/);
    expect(() => applyJsonPatch([1], { a: [3] })).toThrow(/no item 3/);
  });
});
