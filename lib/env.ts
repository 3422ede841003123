import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import { z } from "zod";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .default("0")
  .transform((v) => v === "1" || v === "true");

const PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"];

/** What proxy-addr compiles, with the address in its usual notation: proxy-addr would also take "10" as 0.0.0.10. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const address = entry.split("/")[0] ?? "";
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !(address.includes(":") && ipaddr.IPv6.isValid(address))) return false;
  try {
    proxyaddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}

const proxyList = z
  .string()
  .default("")
  .transform((value) => value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== ""))
  .superRefine((entries, ctx) => {
    const bad = entries.find((entry) => !isProxyEntry(entry));
    if (bad !== undefined) ctx.addIssue({ code: "custom", message: `${JSON.stringify(bad)} is not an IP address, a CIDR range or one of ${PROXY_NAMES.join(", ")}` });
  });

/** Days of raw bodies kept; unset or empty, they are kept forever. */
export const keepRawDays = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.coerce
    .number({ error: "must be a whole number of days" })
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day (unset it to keep raw bodies forever)")
    .optional(),
);

/** The SQLite file the archive is kept in when neither REDLINE_DB nor REDLINE_DATABASE_URL says otherwise. */
export const DEFAULT_DATABASE_FILE = "data/redline.db";

const envSchema = z.object({
  REDLINE_DB: z.string().min(1).default(DEFAULT_DATABASE_FILE),
  /** A PostgreSQL database to keep the archive in instead of the SQLite file REDLINE_DB: postgres://user:password@host:5432/name. */
  REDLINE_DATABASE_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().regex(/^postgres(ql)?:\/\/\S+$/i, "use postgres://user:password@host:5432/database").optional(),
  ),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Where a vendor's operator can reach whoever runs this Redline; sent in the User-Agent. */
  REDLINE_CONTACT_URL: z.string().default(""),
  /** Lets vendor URLs point at loopback and private addresses: the simulator and tests need it. */
  REDLINE_ALLOW_PRIVATE_URLS: flag,
  REDLINE_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(300),
  REDLINE_POLL_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(16),
  /** Minimum time between two requests to one host. */
  REDLINE_HOST_INTERVAL_MS: z.coerce.number().int().min(0).default(2_000),
  /**
   * How long a poller's claim on a vendor lasts unless renewed (it renews a third of the way):
   * after a poller dies, its vendors wait this long before another takes them.
   */
  REDLINE_POLL_LEASE_SECONDS: z.coerce.number().int().min(3).max(3_600).default(60),
  REDLINE_MAX_BACKOFF_SECONDS: z.coerce.number().int().min(1).default(3_600),
  REDLINE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  REDLINE_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Google Cloud's incidents.json is several MB; anything far beyond is refused. */
  REDLINE_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(32 * 1024 * 1024),
  /** How often an incident page is re-read for its postmortem. */
  REDLINE_POSTMORTEM_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(6 * 3_600),
  /** The archive's public address (https://redline.example.org), for absolute links in feeds and the API. */
  REDLINE_PUBLIC_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  /** The first retry of a failed delivery comes after half to all of this; each next one waits twice as long. */
  REDLINE_NOTIFY_RETRY_BASE_SECONDS: z.coerce.number().positive().default(30),
  /** Where e-mail subscriptions are sent through: smtp://user:pass@host:587 (STARTTLS where offered) or smtps:// (implicit TLS). */
  REDLINE_SMTP_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^smtps?$/, error: "use smtp://user:pass@host:587 or smtps://…" }).optional()),
  /** The From: of Redline's e-mail. */
  REDLINE_MAIL_FROM: z.string().default("Redline <redline@localhost>"),
  /** Deliveries in flight at once, across subscriptions. */
  REDLINE_NOTIFY_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  REDLINE_NOTIFY_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  REDLINE_NOTIFY_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** Lets its bearer add, remove and poll vendors through the API; unset, those operations answer 401. */
  REDLINE_OPERATOR_TOKEN: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(16, "use at least 16 characters").optional()),
  /** Per-client budget for the API, the feeds and the search page: sustained requests a second (0 turns it off), and burst. */
  REDLINE_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).default(10),
  REDLINE_RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(120),
  /** Failed sign-ins and pushes to unknown webhook addresses a client may make at once, then one more per interval (0: no limit). */
  REDLINE_FAILED_ATTEMPT_BURST: z.coerce.number().int().min(1).default(5),
  REDLINE_FAILED_ATTEMPT_INTERVAL_SECONDS: z.coerce.number().min(0).default(10),
  /** The reverse proxies whose X-Forwarded-For is believed; empty, the peer is the client. */
  REDLINE_TRUSTED_PROXIES: proxyList,
  /** Refused rather than ignored: a deployment that still sets it would otherwise trust no proxy without a word. */
  REDLINE_TRUST_PROXY: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.undefined({ error: "replaced by REDLINE_TRUSTED_PROXIES (a comma-separated list of your proxies' addresses or CIDR ranges); remove it" }),
  ),
  /** Webhook budgets: per source (sustained pushes a second, burst), then a ceiling over all sources. */
  REDLINE_HOOK_RATE_PER_SECOND: z.coerce.number().positive().default(1),
  REDLINE_HOOK_BURST: z.coerce.number().int().min(1).default(30),
  REDLINE_HOOK_CEILING_PER_SECOND: z.coerce.number().positive().default(50),
  REDLINE_HOOK_CEILING_BURST: z.coerce.number().int().min(1).default(500),
  REDLINE_HOOK_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(16 * 1024 * 1024).default(256 * 1024),
  /** Pushes within this long of the first fold into one poll. */
  REDLINE_HOOK_DEBOUNCE_SECONDS: z.coerce.number().min(0).default(10),
  /** At most one operator alert per throttled scope per this many seconds. */
  REDLINE_ALERT_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3_600),
  /** Where operator alerts are POSTed as JSON (besides the log). */
  REDLINE_ALERT_WEBHOOK_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  /** A WebSub hub (https://hub.example.org/): feeds advertise it and Redline pings it when they gain an entry. */
  REDLINE_WEBSUB_HUB: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  /** Memory for rendered archive pages kept while the archive is unchanged; 0 turns it off. */
  REDLINE_PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  /** Threads rendering incident, change and component pages beside the web server's own; 0 renders them on it. Unset: one fewer than the cores, 1 to 4. */
  REDLINE_PAGE_WORKERS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(0).max(64).optional()),
  /** How long a full-text search (the search page, the API's search and `q` filter) may run, and may wait for its turn, before it is stopped (or refused) and answered 503. */
  REDLINE_SEARCH_TIMEOUT_MS: z.coerce.number().int().min(50).max(600_000).default(3000),
  /** Threads running SQLite searches beside the web server's own, each with its own read-only connection; 0 runs them on it, unbounded. */
  REDLINE_SEARCH_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
  /** `npm run demo` only: the poller observes by the simulator's clock (lib/catch-up-clock.ts), "startMs,anchorRealMs,acceleration". */
  REDLINE_DEMO_CLOCK: z.preprocess((v) => (v === "" ? undefined : v), z.string().regex(/^\d+,\d+,\d+(?:\.\d+)?$/, "expected startMs,anchorRealMs,acceleration").optional()),
  /** Raw bodies of captures last observed longer ago than this many days are deleted; the history derived from them stays. */
  REDLINE_KEEP_RAW_DAYS: keepRawDays,
});

export type Env = Omit<z.infer<typeof envSchema>, "REDLINE_TRUST_PROXY">;

/** Where the archive lives: REDLINE_DATABASE_URL when set, else the SQLite file REDLINE_DB. */
export function databaseLocation(env: Pick<Env, "REDLINE_DB" | "REDLINE_DATABASE_URL">): string {
  return env.REDLINE_DATABASE_URL ?? env.REDLINE_DB;
}

/** The environment that points a child process at `location` (a postgres:// URL or a SQLite file): databaseLocation's inverse. */
export function databaseEnvironment(location: string): { REDLINE_DATABASE_URL: string; REDLINE_DB?: string } {
  return /^postgres(ql)?:\/\//i.test(location) ? { REDLINE_DATABASE_URL: location } : { REDLINE_DATABASE_URL: "", REDLINE_DB: location };
}

/** The environment, read once and validated: a bad value stops the process with its name. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`invalid environment: ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}`);
  }
  return result.data;
}
