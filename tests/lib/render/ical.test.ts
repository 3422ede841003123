import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { type CalendarEvent, escapeText, foldLine, formatUtc, renderCalendar } from "@/lib/render/ical";

const event: CalendarEvent = {
  uid: "m1@acme.redline",
  start: "2026-04-10T22:00:00.000Z",
  end: "2026-04-11T02:30:00.000Z",
  stamp: "2026-04-02T08:15:30.000Z",
  lastModified: "2026-04-02T08:15:30.000Z",
  sequence: 1,
  status: "CONFIRMED",
  summary: "Acme: Upgrade",
  description: "Status: scheduled",
  url: "https://redline.test/vendors/acme/incidents/m1",
};

describe("iCalendar text", () => {
  it("escapes backslashes, semicolons, commas and every kind of line break", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf\rg")).toBe("a\\\\b\\;c\\,d\\ne\\nf\\ng");
  });

  it("drops control characters a TEXT value may not hold, and keeps tabs", () => {
    expect(escapeText("a\u0000b\u0007c\u007fd\te")).toBe("abcd\te");
  });

  it("writes instants as UTC date-times without fractions", () => {
    expect(formatUtc("2026-03-01T10:00:00.000Z")).toBe("20260301T100000Z");
    expect(() => formatUtc("soon")).toThrow(RangeError);
  });
});

describe("iCalendar line folding", () => {
  it("leaves a line of 75 octets whole and folds one of 76", () => {
    expect(foldLine("x".repeat(75))).toBe("x".repeat(75));
    expect(foldLine("x".repeat(76))).toBe(`${"x".repeat(75)}\r\n x`);
  });

  it("keeps every folded line within 75 octets counting the leading space, and never splits a character", () => {
    const line = `SUMMARY:${"Wartung für Zürich – 東京 ✓ ".repeat(12)}`;
    const folded = foldLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((p) => p.startsWith(" "))).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join("")).toBe(line);
    expect(folded).not.toContain("\uFFFD");
  });
});

describe("iCalendar documents", () => {
  it("render a calendar a parser reads back field by field, with CRLF line ends", () => {
    const text = renderCalendar({ name: "Redline: Acme, maintenance", description: "Windows; past and future", events: [event] });
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text.split("\r\n").every((l) => !l.includes("\n"))).toBe(true);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(text).toContain("\r\nNAME:Redline: Acme\\, maintenance\r\n");
    expect(text).toContain("X-WR-CALNAME:Redline: Acme\\, maintenance\r\n");
    const [vevent] = calendar.getAllSubcomponents("vevent");
    expect(vevent?.getFirstPropertyValue("uid")).toBe("m1@acme.redline");
    expect((vevent?.getFirstPropertyValue("dtstart") as ICAL.Time).toString()).toBe("2026-04-10T22:00:00Z");
    expect((vevent?.getFirstPropertyValue("dtend") as ICAL.Time).toString()).toBe("2026-04-11T02:30:00Z");
    expect((vevent?.getFirstPropertyValue("dtstamp") as ICAL.Time).toString()).toBe("2026-04-02T08:15:30Z");
    expect(vevent?.getFirstPropertyValue("sequence")).toBe(1);
    expect(vevent?.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(vevent?.getFirstPropertyValue("url")).toBe(event.url);
  });

  it("keep a vendor text that spells out calendar lines inside its own property", () => {
    const hostile = "Upgrade\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:forged\nSTATUS:CANCELLED";
    const text = renderCalendar({ name: "n", description: "d", events: [{ ...event, summary: hostile, description: hostile }] });
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent");
    expect(events).toHaveLength(1);
    expect(events[0]?.getFirstPropertyValue("uid")).toBe("m1@acme.redline");
    expect(events[0]?.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(events[0]?.getFirstPropertyValue("summary")).toBe("Upgrade\nEND:VEVENT\nBEGIN:VEVENT\nUID:forged\nSTATUS:CANCELLED");
  });

  it("carry vendor text as plain words: tags and script addresses gone from the calendar's and the event's text", () => {
    const text = renderCalendar({
      name: "Redline: Evil <b>Co</b> maintenance",
      description: "Windows of Evil <b>Co</b>",
      events: [{ ...event, summary: "<script>alert(1)</script>Outage <img src=x onerror=alert(1)>", description: 'Read <a href="javascript:alert(1)">x</a>.' }],
    });
    expect(text).not.toMatch(/<[a-z/!?]|javascript:/i);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Redline: Evil Co maintenance");
    const vevent = calendar.getFirstSubcomponent("vevent");
    expect(vevent?.getFirstPropertyValue("summary")).toBe("Outage");
    expect(vevent?.getFirstPropertyValue("description")).toBe("Read x.");
  });

  it("leave out a URL that is not an absolute http(s) address", () => {
    for (const url of ["javascript:alert(1)", "data:text/html,x", "/vendors/acme", "https://a.test/x\r\nSTATUS:CANCELLED"]) {
      const text = renderCalendar({ name: "n", description: "d", events: [{ ...event, url }] });
      expect(text).not.toMatch(/^URL:/m);
      expect(text).not.toContain("CANCELLED");
    }
  });

  it("leave DTEND out of an event without an end", () => {
    const text = renderCalendar({ name: "n", description: "d", events: [{ ...event, end: null }] });
    expect(text).toContain("DTSTART:20260410T220000Z\r\n");
    expect(text).not.toContain("DTEND");
  });
});
