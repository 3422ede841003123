import { Fragment } from "react";
import { type DiffHunk, type DiffLine, diffHunks, lineChangeOf, openingOf } from "@/lib/diff-hunks";
import { type DiffPiece, diffText, spaceSegments } from "@/lib/word-diff";

function Piece({ piece }: { piece: DiffPiece }) {
  if (piece.kind === "removed") return <del>{piece.text}</del>;
  if (piece.kind === "added") return <ins>{piece.text}</ins>;
  return <>{piece.text}</>;
}

function skippedLabel(count: number): string {
  return `… ${count} unchanged ${count === 1 ? "line" : "lines"} …`;
}

/** A changed line's margin says what it holds: green inserted, red removed, orange both (globals.css). */
function lineClass(line: DiffLine): string {
  const change = lineChangeOf(line);
  return change === null ? "diff-line" : `diff-line diff-changed diff-${change}`;
}

function Hunk({ hunk }: { hunk: DiffHunk }) {
  if (hunk.kind === "skipped") return <p className="diff-skipped">{skippedLabel(hunk.count)}</p>;
  return (
    <div className="diff-hunk">
      {hunk.lines.map((line, i) =>
        line.pieces.length === 0 ? null : (
          <p key={i} className={lineClass(line)}>
            {line.pieces.map((p, j) => (
              <Piece key={j} piece={p} />
            ))}
          </p>
        ),
      )}
    </div>
  );
}

/**
 * An edited text in one rendering: removed words struck through, added words marked, spaced so
 * they never run together; a long text cut to its changed passages with a few lines around each.
 */
export function TextDiff({ before, after }: { before: string; after: string }) {
  return (
    <div className="text-diff">
      {diffHunks(before, after).map((hunk, i) => (
        <Hunk key={i} hunk={hunk} />
      ))}
    </div>
  );
}

/** A short text (a title) split as a review's side-by-side: one side's words, its changes marked. */
export function SideOfDiff({ before, after, side }: { before: string; after: string; side: "before" | "after" }) {
  const hidden = side === "before" ? "added" : "removed";
  return (
    <>
      {spaceSegments(diffText(before, after))
        .filter((p) => p.kind !== hidden && p.kind !== "gap")
        .map((p, i) => (
          <Fragment key={i}>
            <Piece piece={p} />
          </Fragment>
        ))}
    </>
  );
}

/** Vendor plain text with its paragraphs and line breaks; React escapes every character. */
export function VendorText({ text }: { text: string }) {
  return (
    <div className="vendor-text">
      {text.split(/\n{2,}/).map((para, i) => (
        <p key={i}>{para}</p>
      ))}
    </div>
  );
}

/** How a long text starts, with a count of what the whole text adds; React escapes every character. */
export function TextOpening({ text }: { text: string }) {
  const { lines, left } = openingOf(text);
  return (
    <div className="text-opening">
      {lines.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
      {left > 0 ? <p className="diff-skipped">… {left} more {left === 1 ? "line" : "lines"} in the whole text …</p> : null}
    </div>
  );
}
