import { diffText } from "@/lib/word-diff";

/** An edited text, word by word: removed words struck through, added words marked. */
export function TextDiff({ before, after }: { before: string; after: string }) {
  return (
    <p className="text-diff">
      {diffText(before, after).map((s, i) =>
        s.kind === "same" ? <span key={i}>{s.text}</span> : s.kind === "removed" ? <del key={i}>{s.text}</del> : <ins key={i}>{s.text}</ins>,
      )}
    </p>
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
