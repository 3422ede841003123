import { describe, expect, it } from "vitest";
import { FAILING_VENDORS_MIN, isEveryPollFailing, PollFailureWatch, pollingNotice } from "@/lib/poll-reachability";

const failed = (error = "acme: getaddrinfo ENOTFOUND status.acme.com") => ({ ok: false, error });
const ok = { ok: true, error: null };
const vendor = (id: number) => ({ id, slug: `v${id}` });

describe("isEveryPollFailing", () => {
  it("holds when every polled vendor's latest poll failed, and not while one succeeded or none was polled", () => {
    expect(isEveryPollFailing({ vendors: 3, ok: 0, failed: 3, lastError: null })).toBe(true);
    expect(isEveryPollFailing({ vendors: 3, ok: 1, failed: 2, lastError: null })).toBe(false);
    expect(isEveryPollFailing({ vendors: 3, ok: 0, failed: 0, lastError: null })).toBe(false);
  });

  it("waits for the whole list when it is short, and for ten failures of a long one", () => {
    expect(isEveryPollFailing({ vendors: 3, ok: 0, failed: 2, lastError: null })).toBe(false);
    expect(isEveryPollFailing({ vendors: 159, ok: 0, failed: FAILING_VENDORS_MIN - 1, lastError: null })).toBe(false);
    expect(isEveryPollFailing({ vendors: 159, ok: 0, failed: FAILING_VENDORS_MIN, lastError: null })).toBe(true);
  });
});

describe("pollingNotice", () => {
  it("says no vendor can be reached, how many failed, and the last error", () => {
    const notice = pollingNotice({ vendors: 159, ok: 0, failed: 12, lastError: "acme: getaddrinfo ENOTFOUND status.acme.com" });
    expect(notice).toContain("Redline cannot reach any vendor: the last polls of the 12 vendors polled so far (of 159) failed");
    expect(notice).toContain("offline");
    expect(notice).toMatch(/Last error: acme: getaddrinfo ENOTFOUND status\.acme\.com$/);
    expect(pollingNotice({ vendors: 2, ok: 0, failed: 2, lastError: null })).toContain("the last polls of all 2 vendors failed");
    expect(pollingNotice({ vendors: 159, ok: 1, failed: 158, lastError: null })).toBeNull();
  });

  it("shows the last error without the user name and password of the URL it names", () => {
    const notice = pollingNotice({ vendors: 2, ok: 0, failed: 2, lastError: "legacy: https://ops:pw-secret@status.example.com/api/v2/summary.json: status.example.com answered HTTP 503" });
    expect(notice).toMatch(/Last error: legacy: https:\/\/status\.example\.com\/api\/v2\/summary\.json: status\.example\.com answered HTTP 503$/);
  });
});

describe("PollFailureWatch", () => {
  it("logs once when every vendor's poll has failed, not again on the rounds that fail after", () => {
    const watch = new PollFailureWatch(2);
    expect(watch.record(vendor(1), failed())).toBeNull();
    const line = watch.record(vendor(2), failed("globex: getaddrinfo ENOTFOUND status.globex.com"));
    expect(line).toBe(
      "poller: the last polls of all 2 vendors failed: is this machine offline, or is DNS failing? Check its network, DNS and firewall; " +
        "polling goes on with backoff, and this log says when a poll succeeds again (`npm run demo` shows Redline at work without internet). " +
        "Last error: globex: getaddrinfo ENOTFOUND status.globex.com",
    );
    for (let round = 0; round < 5; round += 1) {
      expect(watch.record(vendor(1), failed())).toBeNull();
      expect(watch.record(vendor(2), failed())).toBeNull();
    }
  });

  it("says when a poll succeeds again, and logs again when every poll has come to fail once more", () => {
    const watch = new PollFailureWatch(2);
    watch.record(vendor(1), failed());
    expect(watch.record(vendor(2), failed())).toMatch(/^poller: the last polls of all 2 vendors failed/);
    expect(watch.record(vendor(1), ok)).toBe("poller: v1 was polled successfully: the vendors can be reached again");
    expect(watch.record(vendor(2), ok)).toBeNull();
    expect(watch.record(vendor(1), failed())).toBeNull();
    expect(watch.record(vendor(2), failed())).toMatch(/^poller: the last polls of all 2 vendors failed/);
  });

  it("says nothing while one vendor's polls succeed and every other's fail", () => {
    const watch = new PollFailureWatch(3);
    expect(watch.record(vendor(1), ok)).toBeNull();
    for (let round = 0; round < 3; round += 1) {
      expect(watch.record(vendor(2), failed())).toBeNull();
      expect(watch.record(vendor(3), failed())).toBeNull();
    }
  });

  it("speaks after the first ten failures of a long catalog, before the round is over", () => {
    const watch = new PollFailureWatch(159);
    const lines = Array.from({ length: 40 }, (_, i) => watch.record(vendor(i + 1), failed())).map((line, i) => (line === null ? null : i + 1));
    expect(lines.filter((n) => n !== null)).toEqual([FAILING_VENDORS_MIN]);
  });
});
