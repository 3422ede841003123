import { describe, expect, it } from "vitest";
import { VENDOR_SLUG_MAX_LENGTH, vendorSlugProblem } from "@/lib/vendor-slug";

describe("vendor slugs", () => {
  it("take lowercase letters, digits and single dashes up to 64 characters", () => {
    expect(VENDOR_SLUG_MAX_LENGTH).toBe(64);
    for (const slug of ["github", "aws-us-east-1", "a", "9", "x".repeat(64)]) expect(vendorSlugProblem(slug)).toBeNull();
  });

  it("refuse one of 65 characters or more, saying the limit and not quoting the slug back", () => {
    expect(vendorSlugProblem("a".repeat(65))).toBe("the vendor slug is 65 characters long: at most 64");
    const problem = vendorSlugProblem("a".repeat(5_000)) ?? "";
    expect(problem).toMatch(/5000 characters long: at most 64$/);
    expect(problem.length).toBeLessThan(80);
  });

  it("refuse what is not a slug, quoting it", () => {
    for (const slug of ["", "Acme", "acme--cloud", "-acme", "acme-", "acme_cloud", "acme cloud", "acmé", "../acme"]) {
      expect(vendorSlugProblem(slug)).toBe(`invalid vendor slug ${JSON.stringify(slug)}: use lowercase letters, digits and dashes`);
    }
  });
});
