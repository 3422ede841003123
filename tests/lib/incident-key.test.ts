import { describe, expect, it } from "vitest";
import { incidentKey, paths, providerIdFromKey, safeHttpUrl } from "@/lib/incident-key";

describe("incident keys", () => {
  it("uses URL-safe provider ids as they are", () => {
    expect(incidentKey("71tl7pkqysgw")).toBe("71tl7pkqysgw");
    expect(providerIdFromKey("71tl7pkqysgw")).toBe("71tl7pkqysgw");
  });

  it("encodes any other id reversibly, whatever it contains", () => {
    for (const id of ["cloud-networking/19009", "https://blog.example/post?x=1#y", "~tilde", "ünïcode ✓", "a b"]) {
      const key = incidentKey(id);
      expect(key).toMatch(/^[A-Za-z0-9._~-]+$/);
      expect(providerIdFromKey(key)).toBe(id);
    }
  });

  it("refuses keys it would never make", () => {
    expect(providerIdFromKey("~zz")).toBeNull();
    expect(providerIdFromKey("~")).toBeNull();
    expect(providerIdFromKey("~616263")).toBeNull();
    expect(providerIdFromKey("has space")).toBeNull();
  });

  it("builds every archive path from the vendor slug and the provider id", () => {
    expect(paths.version("gcp", "a/b", 3)).toBe("/vendors/gcp/incidents/~612f62/versions/3");
    expect(paths.incidentExport("github", "abc", "md")).toBe("/vendors/github/incidents/abc/export.md");
  });

  it("links a vendor-given URL only when it is http(s), and never with its user name and password", () => {
    expect(safeHttpUrl("https://ops:pw-secret@status.example.com/history?page=2")).toBe("https://status.example.com/history?page=2");
    expect(safeHttpUrl("http://ops@status.example.com/")).toBe("http://status.example.com/");
    expect(safeHttpUrl("https://status.example.com/")).toBe("https://status.example.com/");
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("not a url")).toBeNull();
  });
});
