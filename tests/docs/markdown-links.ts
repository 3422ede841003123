/** Links and headings of a Markdown file, as GitHub renders them, for checking the documentation. */

export interface MarkdownLink {
  image: boolean;
  target: string;
  line: number;
}

const LINK = /(!?)\[(?:[^[\]]|\[[^\]]*\])*\]\(([^()\s]+)\)/g;

/** Each line outside fenced code blocks, with its number (from 1). */
function proseLines(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fenced = false;
  markdown.split("\n").forEach((text, index) => {
    if (text.startsWith("```")) fenced = !fenced;
    else if (!fenced) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** Every inline link and image, in order. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  return proseLines(markdown).flatMap(({ text, line }) =>
    [...text.matchAll(LINK)].map((match) => ({ image: match[1] === "!", target: match[2] ?? "", line })),
  );
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6} +(.*?) *#* *$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
