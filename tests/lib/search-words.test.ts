import { describe, expect, it } from "vitest";
import { SEARCH_LIMITS, searchWordsOf, searchWordsProblem } from "@/lib/search-words";

describe("search words", () => {
  it("reads words as both databases do: quotes and control characters dropped, bare punctuation ignored, a trailing * a prefix", () => {
    expect(searchWordsOf(' "api"  latency* -- 5xx\u0007 ')).toEqual([
      { text: "api", prefix: false },
      { text: "latency", prefix: true },
      { text: "5xx", prefix: false },
    ]);
  });

  it("refuses the issue's stalling query, saying which limit and what to do", () => {
    expect(searchWordsProblem("c* a* i* o* u* s* t* r* n* l* e* d*")).toBe("at most 8 words (this has 12): leave out the least telling");
  });

  it("refuses a prefix shorter than three letters, also when punctuation leaves a short last part", () => {
    expect(searchWordsProblem("database c*")).toBe('a word ending in * needs at least 3 letters before the * ("c*" matches too many words): type more of it');
    expect(searchWordsProblem("status-co*")).toMatch(/^a word ending in \* needs at least 3 letters/);
    expect(searchWordsProblem("co**")).toMatch(/"co\*" matches too many words/);
    expect(searchWordsProblem("con* status-con*")).toBeNull();
  });

  it("refuses a third prefix word, telling to write the others out", () => {
    expect(searchWordsProblem("deg* lat* err*")).toBe("at most 2 words ending in * (this has 3): write the others out in full");
    expect(searchWordsProblem("deg* lat* errors")).toBeNull();
  });

  it("takes a query at the limits, and counts only words with a letter or digit", () => {
    const eight = Array.from({ length: SEARCH_LIMITS.words }, (_, i) => `word${i}`).join(" ");
    expect(searchWordsProblem(eight)).toBeNull();
    expect(searchWordsProblem(`${eight} - * "" ...`)).toBeNull();
    expect(searchWordsProblem(`${eight} ninth`)).toMatch(/^at most 8 words \(this has 9\)/);
    expect(searchWordsProblem("")).toBeNull();
  });
});
