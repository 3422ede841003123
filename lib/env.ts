import { z } from "zod";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .default("0")
  .transform((v) => v === "1" || v === "true");

const envSchema = z.object({
  REDLINE_DB: z.string().min(1).default("data/redline.db"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Where a vendor's operator can reach whoever runs this Redline; sent in the User-Agent. */
  REDLINE_CONTACT_URL: z.string().default(""),
  /** Lets vendor URLs point at loopback and private addresses: the simulator and tests need it. */
  REDLINE_ALLOW_PRIVATE_URLS: flag,
  REDLINE_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(300),
  REDLINE_POLL_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(16),
  /** Minimum time between two requests to one host. */
  REDLINE_HOST_INTERVAL_MS: z.coerce.number().int().min(0).default(2_000),
  REDLINE_MAX_BACKOFF_SECONDS: z.coerce.number().int().min(1).default(3_600),
  REDLINE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  REDLINE_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Google Cloud's incidents.json is several MB; anything far beyond is refused. */
  REDLINE_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(32 * 1024 * 1024),
  /** How often an incident page is re-read for its postmortem. */
  REDLINE_POSTMORTEM_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(6 * 3_600),
  /** The archive's public address (https://redline.example.org), for absolute links in feeds and the API. */
  REDLINE_PUBLIC_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  /** Lets its bearer add, remove and poll vendors through the API; unset, those operations answer 401. */
  REDLINE_OPERATOR_TOKEN: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(16, "use at least 16 characters").optional()),
  /** Per-client budget for the API and the feeds: sustained requests a second (0 turns it off), and burst. */
  REDLINE_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).default(10),
  REDLINE_RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(120),
  /** Behind a reverse proxy: take the client's address from X-Forwarded-For. */
  REDLINE_TRUST_PROXY: flag,
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
  /** Memory for rendered archive pages kept while the archive is unchanged; 0 turns it off. */
  REDLINE_PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
});

export type Env = z.infer<typeof envSchema>;

/** The environment, read once and validated: a bad value stops the process with its name. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`invalid environment: ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}`);
  }
  return result.data;
}
