import { describe, expect, it } from "vitest";
import { translateToPostgres } from "@/db/postgres/sql-text";

describe("translateToPostgres", () => {
  it("numbers positional parameters in order", () => {
    const t = translateToPostgres("SELECT * FROM t WHERE a = ? AND b > ?");
    expect(t.text).toBe("SELECT * FROM t WHERE a = $1 AND b > $2");
    expect(t.bind([1, "x"])).toEqual([1, "x"]);
  });

  it("gives a name used twice one parameter, and binds named values from one object", () => {
    const t = translateToPostgres("UPDATE p SET o = @owner WHERE (@slug IS NULL OR s = @slug) AND o = :owner AND n = $n");
    expect(t.text).toBe("UPDATE p SET o = $1 WHERE ($2 IS NULL OR s = $2) AND o = $1 AND n = $3");
    expect(t.bind([{ owner: "a", slug: null, n: 3 }])).toEqual(["a", null, 3]);
  });

  it("refuses named parameters given positionally or missing", () => {
    const t = translateToPostgres("SELECT @a, @b");
    expect(() => t.bind(["x", "y"])).toThrow(/one object/);
    expect(() => t.bind([{ a: 1 }])).toThrow(/missing named parameter @b/);
  });

  it("refuses a statement mixing ? and named parameters", () => {
    expect(() => translateToPostgres("SELECT ?, @a")).toThrow(/mixes/);
  });

  it("quotes aliases with capitals so PostgreSQL keeps their case, and leaves lower-case ones", () => {
    expect(translateToPostgres("SELECT vendor_id AS vendorId, count(*) as n, x AS   observedAt FROM t").text).toBe(
      'SELECT vendor_id AS "vendorId", count(*) as n, x AS   "observedAt" FROM t',
    );
  });

  it("leaves a keyword after AS alone", () => {
    expect(translateToPostgres("WITH q AS MATERIALIZED (SELECT 1 AS n) SELECT n FROM q").text).toBe("WITH q AS MATERIALIZED (SELECT 1 AS n) SELECT n FROM q");
  });

  it("leaves strings, quoted names, comments and casts alone", () => {
    const sql = `SELECT '?' AS "weird?", 'it''s @x' AS a, x::bigint -- @nothing ?\n, /* ? @y */ ? FROM "t@" WHERE w = ?`;
    const t = translateToPostgres(sql);
    expect(t.text).toBe(`SELECT '?' AS "weird?", 'it''s @x' AS a, x::bigint -- @nothing ?\n, /* ? @y */ $1 FROM "t@" WHERE w = $2`);
  });

  it("sends a bigint beyond a number's range exactly, as text", () => {
    expect(translateToPostgres("SELECT ?").bind([2n ** 63n - 1n])).toEqual(["9223372036854775807"]);
  });
});
