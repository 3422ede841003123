/**
 * What a database said when it refused something, from the error either driver threw: a
 * better-sqlite3 SqliteError, a node-postgres DatabaseError, or Drizzle's error wrapping one,
 * itself perhaps the cause of another error.
 */

/** How deep a chain of causes is followed: a cause that points back at an error ends it. */
const MAX_CAUSES = 16;

/** The error and its causes, outermost first. */
function causeChain(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let at: unknown = error; at instanceof Error && chain.length < MAX_CAUSES && !chain.includes(at); at = at.cause) chain.push(at);
  return chain;
}

function field(error: Error, name: string): string | undefined {
  const value = (error as unknown as Record<string, unknown>)[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** PostgreSQL's answer carries a severity and a SQLSTATE; better-sqlite3's a SQLITE_… code. */
function isDatabaseAnswer(error: Error): boolean {
  const code = field(error, "code");
  return code !== undefined && (field(error, "severity") !== undefined || code.startsWith("SQLITE_"));
}

/** What Drizzle wraps a refusal in says the statement, not the reason: `Failed query: …` (query), `Failed to run the query '…'`. */
const RUN_WRAPPER = /^Failed to run the query '([\s\S]*)'$/;

function wrappedStatement(error: Error): string | undefined {
  const query = field(error, "query");
  if (query !== undefined && error.message.startsWith("Failed query:")) return query;
  return RUN_WRAPPER.exec(error.message)?.[1];
}

const isQueryWrapper = (error: Error) => wrappedStatement(error) !== undefined;

function messageOf(error: Error): string {
  if (error.message.trim() !== "") return error.message;
  // A connection tried on each address of a host fails with an AggregateError whose message is empty.
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors)) return errors.map((e) => (e instanceof Error ? e.message : String(e))).join("; ");
  return error.name;
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

/**
 * The database's own reason, on one line: PostgreSQL's message with its detail and hint, SQLite's
 * message; for any other error, the innermost message of its causes that is not Drizzle's statement.
 */
export function databaseReason(error: unknown): string {
  const chain = causeChain(error);
  const answer = chain.find(isDatabaseAnswer) ?? chain.findLast((e) => !isQueryWrapper(e)) ?? chain[0];
  if (answer === undefined) return oneLine(String(error));
  const message = oneLine(messageOf(answer));
  const detail = [field(answer, "detail"), field(answer, "hint")].filter((part) => part !== undefined);
  return detail.length === 0 ? message : `${message} (${oneLine(detail.join(" "))})`;
}

/** The statement the database refused, as Drizzle names it on its wrapper; undefined when none is named. */
export function refusedStatement(error: unknown): string | undefined {
  const wrapper = causeChain(error).find(isQueryWrapper);
  return wrapper === undefined ? undefined : wrappedStatement(wrapper);
}

/** A statement's first line that says something (SQL comments included), for a message. */
export function firstLineOf(statement: string): string {
  return (
    statement
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line !== "") ?? ""
  );
}

/**
 * A store error's message: `store: <the database's reason>` first, then each of `where` on a line
 * of its own, indented. A reason Redline itself raised in SQL already starts `store: `; it is not doubled.
 */
export function describeStoreFailure(error: unknown, ...where: string[]): string {
  const reason = databaseReason(error).replace(/^store: /, "");
  return [`store: ${reason}`, ...where.map((line) => `  ${line}`)].join("\n");
}
