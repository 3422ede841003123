import { describe, expect, it } from "vitest";
import { withoutCredentials } from "@/lib/url-credentials";

describe("withoutCredentials", () => {
  it.each([
    ["https://ops:pw-secret@status.example.com/api", "https://status.example.com/api"],
    ["http://ops@status.example.com/", "http://status.example.com/"],
    ["HTTPS://OPS:PW@STATUS.EXAMPLE.COM/", "HTTPS://STATUS.EXAMPLE.COM/"],
    ["http://a%40b:c@example.com/", "http://example.com/"],
  ])("drops the user name and password of %s", (url, shown) => {
    expect(withoutCredentials(url)).toBe(shown);
  });

  it("drops them from every URL a message quotes, and leaves the rest of it as it was", () => {
    expect(withoutCredentials("acme: https://u:p@x.example/api: more than 5 redirects from https://u:p@x.example/ (ops@example.com)")).toBe(
      "acme: https://x.example/api: more than 5 redirects from https://x.example/ (ops@example.com)",
    );
  });

  it.each(["https://status.example.com/", "https://status.example.com/users/@me?by=a@b#c@d", "mailto:ops@example.com", "ops@example.com wrote"])(
    "leaves %s as it is: it carries no credentials",
    (text) => {
      expect(withoutCredentials(text)).toBe(text);
    },
  );
});
