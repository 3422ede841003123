import { describe, expect, it } from "vitest";
import { errorMessage, printable } from "@/lib/error-message";

describe("printable", () => {
  it("writes control characters as \\u escapes, NUL among them, and keeps tabs, line breaks and other text", () => {
    expect(printable("a\u0000b\u001bc\u007f")).toBe("a\\u0000b\\u001bc\\u007f");
    expect(printable("line\tone\nline two\r\n")).toBe("line\tone\nline two\r\n");
    expect(printable("Unexpected token '\ufffd', é ✓")).toBe("Unexpected token '\ufffd', é ✓");
  });
});

describe("errorMessage", () => {
  it("gives an Error's message, and anything else as a string", () => {
    expect(errorMessage(new Error("boom"))).toBe("boom");
    expect(errorMessage(42)).toBe("42");
  });
});
