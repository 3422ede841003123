import { describe, expect, it } from "vitest";
import { routedPathname } from "@/server/http/routed-path";

describe("routedPathname", () => {
  it("resolves every spelling of a path to the one the router serves", () => {
    for (const spelled of [
      "/api/v1/vendors/github",
      "/api/./v1/vendors/github",
      "/api/%2e/v1/vendors/github",
      "/api/%2E/v1/vendors/github",
      "/api/x/../v1/vendors/github",
      "/api/x/%2e%2e/v1/vendors/github",
      "/api//v1///vendors/github",
      "//api/v1/vendors/github",
      "/api\\v1\\vendors/github",
      "/%61pi/%76%31/vendors/github",
      "/api/v1/vendors/github?x=1",
      "/../api/v1/vendors/github",
    ]) {
      expect(routedPathname(spelled), spelled).toBe("/api/v1/vendors/github");
    }
  });

  it("keeps an escaped ? or # inside the path, and leaves a malformed escape as written", () => {
    expect(routedPathname("/api%3F/v1")).toBe("/api%3F/v1");
    expect(routedPathname("/api%23/v1")).toBe("/api%23/v1");
    expect(routedPathname("/api/v1/vendors/%E0%A4%A")).toBe("/api/v1/vendors/%E0%A4%A");
    expect(routedPathname("")).toBe("/");
  });
});
