/** What a caught value says, for a log line: an Error's message, anything else as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Text quoting a vendor's bytes (a parser's error, a warning's path), with its control characters
 * other than tab and line breaks written as `\uXXXX`: readable in a log, and storable on either
 * database (PostgreSQL's text and jsonb cannot hold U+0000).
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
