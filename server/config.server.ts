/**
 * The one place that reads the environment. Everything configurable goes through here, is checked once
 * at start-up (public-site.md §5, "startup configuration check"), and is never sent to the browser:
 * client code receives only what `publicConfig()` hands to the root loader.
 */
import net from "node:net";
import path from "node:path";
import { z } from "zod";
import { CodedError } from "#server/errors.server.ts";
import { CALENDAR_NAMES, configureFormat, DIGIT_SYSTEMS } from "#domain/format.ts";
import { EMBED_SERVICES, parseEmbedServices } from "#domain/embeds.ts";

export const PRODUCTION_REFUSAL = "Application cannot start with invalid configuration in production mode";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.string().trim().url().optional());
const flag = (fallback: boolean) =>
  z.preprocess(
    (v) =>
      v === undefined || v === "" ? fallback : typeof v === "boolean" ? v : typeof v === "string" && ["1", "true", "yes", "on"].includes(v.toLowerCase()),
    z.boolean(),
  );

/** A duration in milliseconds, from 100 ms to 10 minutes. */
const ms = (fallback: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(600_000).default(fallback));
/** A duration in milliseconds, from 100 ms to 10 minutes, or 0 for none. */
const msOrOff = (fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .refine((v) => v === 0 || (v >= 100 && v <= 600_000), "must be 0 (none) or from 100 to 600000 milliseconds")
      .default(fallback),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().default("./data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

  DATABASE_URL: optionalString,
  /**
   * PostgreSQL's time-outs (docs/decisions/0135-database-timeouts.md): a database that stops answering must fail a
   * request within seconds (a 503, or the page cache's last good copy), never hold it. They bind the web process
   * and the worker; the migrations and the scripts (backup, restore, search reindex) run without the statement and
   * query ones. A connection not made within DATABASE_CONNECT_TIMEOUT_MS, or a free one not had from a full pool, is an error.
   */
  DATABASE_CONNECT_TIMEOUT_MS: ms(5000),
  /** The server cancels a statement that runs longer (statement_timeout, 57014): a clean error, the connection kept. 0: none. */
  DATABASE_STATEMENT_TIMEOUT_MS: msOrOff(5000),
  /** A query with no answer within this fails here and its connection is closed: a silent server (a partition, a failover). 0: none. */
  DATABASE_QUERY_TIMEOUT_MS: msOrOff(6000),
  /** The server ends a session left idle inside a transaction this long, releasing its locks (a client that vanished). 0: none. */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: msOrOff(60_000),
  /** TCP keepalive probes start on a connection idle this long, so one the network dropped is noticed. */
  DATABASE_KEEPALIVE_DELAY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(600_000).default(10_000)),
  REDIS_URL: optionalString,
  /** on: anonymous public pages come from the full-page cache (docs/decisions/0106-page-cache.md). */
  PAGE_CACHE: z.enum(["on", "off"]).default("on"),
  /** on: a fresh cached page is answered before Express's stack runs (docs/decisions/0130-fast-path-and-memory-bounds.md). */
  PAGE_CACHE_FAST_PATH: z.enum(["on", "off"]).default("on"),
  /** The page cache's bound: bytes of pages kept (all three encodings), least recently used out. 1 MB to 4 GB. */
  PAGE_CACHE_MAX_BYTES: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(1_048_576)
      .max(4_294_967_296)
      .default(32 * 1_048_576),
  ),
  /**
   * The shared cache's (a CDN's, Varnish's) lifetimes, in seconds, in the Cache-Control of every anonymous page, feed,
   * sitemap and public JSON answer (server/http/shared-cache.server.ts, docs/decisions/0145-shared-cache.md):
   * `s-maxage` (fresh), `stale-while-revalidate` (served while fetched again), `stale-if-error` (served while we fail).
   */
  CDN_MAX_AGE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(31_536_000).default(60)),
  CDN_STALE_WHILE_REVALIDATE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(31_536_000).default(600)),
  CDN_STALE_IF_ERROR: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(31_536_000).default(86_400)),
  /** The embedded database's shared buffers (PostgreSQL's page cache inside PGlite), in MB; its memory grows past it as needed. */
  PGLITE_SHARED_BUFFERS_MB: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(4096).default(16)),
  /** The read cache's bound (server/content/cache.server.ts): query results kept, least recently used out. */
  READ_CACHE_MAX_ENTRIES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(1_000_000).default(1000)),
  /** Live coverage (issue 44): the event streams one process keeps open; past it a reader is told to poll instead (503). */
  LIVE_MAX_STREAMS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(5000)),
  /** The pace at which readers without a stream poll a coverage's entries, in milliseconds. */
  LIVE_POLL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(600_000).default(10_000)),
  /** A comment sent on every open stream this often, so proxies keep it and readers notice a dead one. */
  LIVE_HEARTBEAT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(600_000).default(20_000)),
  /**
   * The event loop's delay (99th percentile, two looks in a row) past which a process counts as loaded and sends
   * a share of its live readers to polling; 0: never on delay alone (the LIVE_MAX_STREAMS share still applies).
   */
  LIVE_LAG_LIMIT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(500)),

  /** The HTTP server's time-outs (docs/decisions/0107-bounded-input.md). Headers must arrive within this. */
  HTTP_HEADERS_TIMEOUT_MS: ms(20_000),
  /** A request's body (except uploads and the editor's form with its image) must arrive within this of its headers. */
  HTTP_REQUEST_TIMEOUT_MS: ms(30_000),
  /** A connection on which no byte moves either way for this long is closed: the only limit on an upload's duration. */
  HTTP_IDLE_TIMEOUT_MS: ms(60_000),
  /**
   * An upload (tus PATCH) must bring at least UPLOAD_MIN_BYTES_PER_SECOND on average over each window of
   * UPLOAD_RATE_WINDOW_MS, or its connection is closed; what arrived is kept and the upload resumes from it.
   */
  UPLOAD_MIN_BYTES_PER_SECOND: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000_000).default(1024)),
  UPLOAD_RATE_WINDOW_MS: ms(30_000),
  /** An idle kept-alive connection is closed after this; above a load balancer's own idle time-out (often 60 s). */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: ms(65_000),

  BETTER_AUTH_SECRET: optionalString,

  SITE_NAME: z.string().default("صحراء ميديا"),
  SITE_NAME_FR: z.string().default("Sahara Média"),
  SITE_DESCRIPTION: z.string().default("منصة إخبارية وثقافية عربية من موريتانيا والصحراء"),
  SITE_LOGO_URL: z.string().default("/brand/logo.svg"),
  SITE_LOGO_FALLBACK_URL: z.string().default("/brand/logo-alt.svg"),
  /**
   * The calendars dates are shown in (docs/decisions/0148-hijri-dates-and-digits.md): `gregorian`, or
   * `gregorian,hijri` for the Umm al-Qura date beside it in the header and on detail pages.
   */
  DATE_CALENDARS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("gregorian")
      .transform((v) => [...new Set(v.split(",").map((c) => c.trim().toLowerCase()))])
      .refine(
        (list) => list.includes("gregorian") && list.every((c) => (CALENDAR_NAMES as readonly string[]).includes(c)),
        "must be gregorian or gregorian,hijri",
      )
      .transform((list) => CALENDAR_NAMES.filter((c) => list.includes(c))),
  ),
  /** The digits Arabic text is written with: `latn` (0–9, as the Maghreb writes) or `arab` (٠–٩, as the Gulf does); French and English keep 0–9. */
  DIGITS: z.preprocess(emptyToUndefined, z.enum(DIGIT_SYSTEMS).default("latn")),

  SOCIAL_FACEBOOK_URL: optionalUrl,
  SOCIAL_TWITTER_URL: optionalUrl,
  SOCIAL_INSTAGRAM_URL: optionalUrl,
  SOCIAL_YOUTUBE_URL: optionalUrl,
  /**
   * The services whose posts and videos in a body are framed at once (docs/decisions/0150-embeds-ask-first.md), e.g.
   * `youtube,facebook`; every other embed waits for the reader's click. Empty: all of them ask first.
   */
  EMBEDS_ALLOWED: z
    .string()
    .default("")
    .transform((value, ctx) => {
      const parsed = parseEmbedServices(value);
      if ("services" in parsed) return parsed.services;
      ctx.addIssue({ code: "custom", message: `unknown service "${parsed.unknown.slice(0, 40)}"; known: ${EMBED_SERVICES.join(", ")}` });
      return z.NEVER;
    }),

  CONTACT_EMAIL: z.string().default("contact@sahara-media.mr"),
  CONTACT_PHONE: z.string().default("+222 45 25 00 00"),
  CONTACT_ADDRESS: z.string().default("نواكشوط، موريتانيا"),
  CONTACT_ADDRESS_FR: z.string().default("Nouakchott, Mauritanie"),

  STORAGE_DRIVER: z.enum(["local", "bunny", "s3"]).default("local"),
  CDN_URL: optionalString,
  BUNNY_STORAGE_ZONE: optionalString,
  BUNNY_STORAGE_API_KEY: optionalString,
  BUNNY_STORAGE_HOST: z.string().default("storage.bunnycdn.com"),
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().default("auto"),
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: optionalUrl,

  VIDEO_DRIVER: z.enum(["local", "bunny"]).default("local"),
  FFMPEG_PATH: z.string().default("ffmpeg"),
  FFPROBE_PATH: z.string().default("ffprobe"),
  /** embedded: this process also runs the job queue; off: a separate `npm run worker` does (needs DATABASE_URL). */
  JOB_WORKER: z.enum(["embedded", "off"]).default("embedded"),
  BUNNY_STREAM_LIBRARY_ID: optionalString,
  BUNNY_STREAM_API_KEY: optionalString,
  BUNNY_STREAM_CDN_HOSTNAME: optionalString,
  BUNNY_STREAM_TOKEN_KEY: optionalString,
  BUNNY_STREAM_API_URL: z.string().url().default("https://video.bunnycdn.com"),

  /**
   * Purge of the shared cache in front of the site (a CDN or Varnish) on every change the page cache hears
   * (server/cdn/purge.server.ts): none (the shared cache keeps a page until its s-maxage ends), varnish, bunny, cloudflare.
   */
  CDN_PURGE: z.enum(["none", "varnish", "bunny", "cloudflare"]).default("none"),
  /** Where Varnish takes `PURGE` requests with an `xkey-purge` header (deploy/varnish/default.vcl). */
  VARNISH_PURGE_URL: optionalUrl,
  BUNNY_API_KEY: optionalString,
  BUNNY_PULL_ZONE_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^\d{1,20}$/, "must be the pull zone's numeric id")
      .optional(),
  ),
  BUNNY_API_URL: z.string().url().default("https://api.bunny.net"),
  CLOUDFLARE_ZONE_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^[0-9a-f]{32}$/i, "must be the zone's 32-character id")
      .optional(),
  ),
  CLOUDFLARE_API_TOKEN: optionalString,
  CLOUDFLARE_API_URL: z.string().url().default("https://api.cloudflare.com/client/v4"),

  FACEBOOK_PAGE_ID: optionalString,
  FACEBOOK_PAGE_TOKEN: optionalString,
  FACEBOOK_GRAPH_URL: z.string().url().default("https://graph.facebook.com"),
  /**
   * The Graph API version every call names (docs/decisions/0060-social-feed.md). Meta serves each for about two
   * years: v26.0 was the newest in Meta's changelog when this default was chosen (2026-11).
   */
  FACEBOOK_GRAPH_VERSION: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^v[1-9]\d{0,2}\.\d{1,2}$/, "must be a Graph API version such as v26.0 (v, the major number, a dot, the minor number)")
      .default("v26.0"),
  ),
  /** How long a page of posts is served before it is refreshed in the background. */
  FACEBOOK_CACHE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(86_400).default(300)),
  /** A Graph request (or a post image) is abandoned after this long; the last good copy is served meanwhile. */
  FACEBOOK_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(30_000).default(4000)),

  SMTP_URL: optionalString,
  /**
   * Breaking-news alerts by Web Push (docs/decisions/0127-breaking-news-alerts.md): the VAPID key pair
   * (`npx web-push generate-vapid-keys`), both or neither; without them alerts are off and no opt-in is shown.
   */
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  /** Who the push services may contact about our alerts: a mailto: or https: address (mailto:CONTACT_EMAIL unless set). */
  VAPID_SUBJECT: optionalString,
  /** Breaking-news alerts sent in any hour at most; the next ones are held, and the editor sees it (decision 0134). */
  PUSH_ALERTS_PER_HOUR: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1000).default(6)),
  /** A push delivery's total deadline (connect, TLS, request and answer): a slow push service never holds the others. */
  PUSH_DEADLINE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(60_000).default(10_000)),
  /** Deliveries a subscription may fail in a row, for any reason, before it is removed. */
  PUSH_MAX_FAILURES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(5)),
  MAIL_FROM: z.string().default("صحراء ميديا <no-reply@sahara-media.mr>"),
  /** Newsletter sends (docs/decisions/0126-newsletter-sends.md): recipients claimed and mailed together; a crash repeats at most one batch. */
  NEWSLETTER_BATCH_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1000).default(50)),
  /** The most newsletter messages sent a minute (the mail provider's limit). */
  NEWSLETTER_RATE_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(600)),
  /** SMTP connections a newsletter send keeps open at once (pooled). */
  NEWSLETTER_SMTP_CONNECTIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(50).default(3)),

  /** How long the audit log keeps its rows (issue 40, decision 0140); a daily job removes older ones. */
  AUDIT_RETENTION_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3650).default(365)),
  /**
   * Audience figures (issue 45, docs/decisions/0147-audience-figures.md): on, each page's beacon is recorded without a
   * cookie or an address; off, nothing is recorded but the items' running view counts.
   */
  ANALYTICS: z.enum(["on", "off"]).default("on"),
  /** Days raw beacons are kept ("now", a rebuild of the rollups); the hourly and daily figures outlive them. */
  ANALYTICS_RAW_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(400).default(30)),
  /** Days the hourly figures and the searches are kept; the daily figures are kept for ever. */
  ANALYTICS_HOURLY_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(7).max(800).default(90)),
  /** Beacons are written together this often (or at 500): the figures lag a view by at most this plus a query. */
  ANALYTICS_FLUSH_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(10_000).default(2000)),
  /** Who is editing (issue 40, decision 0139): an item's soft lock its form has not renewed for this long is free. */
  ITEM_LOCK_TTL_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(30).max(3600).default(120)),

  SEED_DEMO: flag(true),
  /**
   * on: a starting web process or worker migrates the database when it is behind (under a lock: any number may start
   * at once); off: it only waits, up to two minutes, for `npm run db:migrate` to have done it.
   */
  MIGRATE_ON_START: flag(true),

  /**
   * Which peers may say who the client is (X-Forwarded-For, -Proto, -Host, X-Request-Id): a number of proxy hops, or
   * a comma list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal (Express's `trust proxy`).
   * `req.ip`, which the rate limits and the view counter use, is the first address not trusted.
   */
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().trim().default("loopback")).transform((value, ctx) => {
    const parsed = parseTrustProxy(value);
    if (typeof parsed === "string") {
      ctx.addIssue({ code: "custom", message: parsed });
      return z.NEVER;
    }
    return parsed;
  }),
  /** on: one log line per request (docs/operations.md); off: none (a proxy in front keeps its own). */
  ACCESS_LOG: z.enum(["on", "off"]).default("on"),
  /** /metrics answers a scrape from this machine (isLocalScrape); anything else only `Authorization: Bearer <METRICS_TOKEN>`, and 404 without it set. */
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().trim().min(16, "must be at least 16 characters").optional()),
  /**
   * Searches that reach the database (a page-cache hit is never counted) per minute: "R" or "R,A" — R per reader
   * (a signed-in session or the search cookie), A per address for requests without one (10 × R when not given).
   * Suggestions as you type count against budgets ten times these (docs/decisions/0128-search-limits-queue-suggestions.md).
   */
  SEARCH_RATE_LIMIT: z.preprocess(emptyToUndefined, z.string().trim().default("30,300")).transform((value, ctx) => {
    const parsed = parseSearchRateLimit(value);
    if (typeof parsed === "string") {
      ctx.addIssue({ code: "custom", message: parsed });
      return z.NEVER;
    }
    return parsed;
  }),
});

/** SEARCH_RATE_LIMIT as numbers, or the reason it is not a limit. */
export function parseSearchRateLimit(value: string): { reader: number; address: number } | string {
  const usage = `SEARCH_RATE_LIMIT must be searches per minute per reader (1 to 10000), optionally a comma and per address (at least the reader's, at most 100000), such as 30 or 30,300; got "${value.slice(0, 40)}"`;
  const match = /^(\d{1,5})\s*(?:,\s*(\d{1,6}))?$/.exec(value);
  if (!match) return usage;
  const reader = Number(match[1]);
  const address = match[2] === undefined ? reader * 10 : Number(match[2]);
  if (reader < 1 || reader > 10_000 || address < reader || address > 100_000) return usage;
  return { reader, address };
}

const TRUST_PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY as Express takes it (a hop count, or addresses and ranges), or the reason it is not one. Checked
 * here so that a typo stops the start with a clear message instead of Express's TypeError, or a silent default.
 */
export function parseTrustProxy(value: string): number | string[] | string {
  const usage = `TRUST_PROXY must be a number of proxy hops (0 to 10) or a comma-separated list of addresses, CIDR ranges (10.0.0.0/8) and loopback, linklocal, uniquelocal; got "${value.slice(0, 80)}"`;
  if (/^\d+$/.test(value)) return Number(value) <= 10 ? Number(value) : usage;
  const entries = value.split(",").map((entry) => entry.trim());
  if (!entries.length || entries.some((entry) => !isTrustEntry(entry))) return usage;
  return entries;
}

function isTrustEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address, range, ...rest] = entry.split("/");
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  // A netmask (10.0.0.0/255.0.0.0), which Express takes for IPv4.
  return family === 4 && net.isIPv4(range);
}

export type Env = z.infer<typeof envSchema>;

export type Config = Env & {
  isProduction: boolean;
  dataDir: string;
  publicUrl: string;
  databaseDriver: "pglite" | "postgres";
  /** Drivers in use after the check; a misconfigured driver outside production falls back to the embedded one. */
  drivers: {
    database: "pglite" | "postgres";
    storage: Env["STORAGE_DRIVER"];
    video: Env["VIDEO_DRIVER"];
    mail: "smtp" | "outbox";
    cache: "memory" | "redis";
    social: "graph-api" | "off";
    push: "web-push" | "off";
    /** The shared cache's purge (CDN_PURGE), none when its settings are missing outside production. */
    cdnPurge: Env["CDN_PURGE"];
  };
  secretValues: string[];
};

export type ConfigCheck = { config: Config; errors: string[]; warnings: string[] };

const missing = (name: string) => `Missing required environment variable: ${name}`;
const looksExample = (name: string) => `${name} appears to contain example or development values`;

/** Values that someone copied from an example file or left pointing at a developer's machine. */
export function looksLikeExampleValue(value: string): boolean {
  return /(^|[^a-z])(example|changeme|change-me|your[-_]?|xxx+|placeholder|dummy|test-?key|localhost|127\.0\.0\.1)/i.test(value);
}

function requireAll(env: Record<string, unknown>, names: string[], errors: string[]) {
  let ok = true;
  for (const name of names) {
    if (env[name] === undefined || env[name] === "") {
      errors.push(missing(name));
      ok = false;
    }
  }
  return ok;
}

/** Pure check of an environment: used at start-up and by the tests. */
export function checkConfig(raw: Record<string, string | undefined>): ConfigCheck {
  const errors: string[] = [];
  const warnings: string[] = [];
  const parsed = envSchema.safeParse(raw);
  let env: Env;
  if (parsed.success) {
    env = parsed.data;
  } else {
    for (const issue of parsed.error.issues) errors.push(`Invalid environment variable ${issue.path.join(".")}: ${issue.message}`);
    // Keep going with the defaults for the broken keys so every problem is reported at once.
    const cleaned = { ...raw };
    for (const issue of parsed.error.issues) delete cleaned[String(issue.path[0])];
    env = envSchema.parse(cleaned);
  }
  const isProduction = env.NODE_ENV === "production";

  let database: Config["drivers"]["database"] = "pglite";
  if (env.DATABASE_URL) {
    if (!/^postgres(ql)?:\/\/[^\s/]+/.test(env.DATABASE_URL)) {
      errors.push("DATABASE_URL must be a valid PostgreSQL URL (postgres://user:password@host:5432/database)");
    } else {
      database = "postgres";
    }
  }

  // The server's cancel of a slow statement must arrive before the client gives up on the whole connection.
  if (env.DATABASE_QUERY_TIMEOUT_MS && env.DATABASE_STATEMENT_TIMEOUT_MS && env.DATABASE_QUERY_TIMEOUT_MS <= env.DATABASE_STATEMENT_TIMEOUT_MS) {
    errors.push(
      `DATABASE_QUERY_TIMEOUT_MS (${env.DATABASE_QUERY_TIMEOUT_MS}) must be longer than DATABASE_STATEMENT_TIMEOUT_MS (${env.DATABASE_STATEMENT_TIMEOUT_MS}): a slow statement is cancelled by the server first, and only a silent server reaches the query time-out`,
    );
  }

  let storage = env.STORAGE_DRIVER;
  if (storage === "bunny") {
    const ok = requireAll(env, ["CDN_URL", "BUNNY_STORAGE_API_KEY", "BUNNY_STORAGE_ZONE"], errors);
    if (env.CDN_URL && !(env.CDN_URL.startsWith("https://") || env.CDN_URL.includes(".b-cdn.net"))) {
      warnings.push("CDN_URL should start with https:// or contain .b-cdn.net");
    }
    if (!ok && !isProduction) storage = "local";
  } else if (storage === "s3") {
    const ok = requireAll(env, ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_PUBLIC_URL"], errors);
    if (!ok && !isProduction) storage = "local";
  }

  let video = env.VIDEO_DRIVER;
  if (video === "bunny") {
    const ok = requireAll(env, ["BUNNY_STREAM_LIBRARY_ID", "BUNNY_STREAM_CDN_HOSTNAME", "BUNNY_STREAM_API_KEY"], errors);
    if (env.BUNNY_STREAM_CDN_HOSTNAME && !env.BUNNY_STREAM_CDN_HOSTNAME.includes(".b-cdn.net")) {
      warnings.push("BUNNY_STREAM_CDN_HOSTNAME should contain .b-cdn.net");
    }
    if (!ok && !isProduction) video = "local";
  }

  let cdnPurge = env.CDN_PURGE;
  const cdnNeeds = {
    none: [],
    varnish: ["VARNISH_PURGE_URL"],
    bunny: ["BUNNY_API_KEY", "BUNNY_PULL_ZONE_ID"],
    cloudflare: ["CLOUDFLARE_ZONE_ID", "CLOUDFLARE_API_TOKEN"],
  };
  if (cdnPurge !== "none") {
    const ok = requireAll(env, cdnNeeds[cdnPurge], errors);
    if (env.VARNISH_PURGE_URL && !/^https?:\/\//.test(env.VARNISH_PURGE_URL)) errors.push("VARNISH_PURGE_URL must start with http:// or https://");
    // Without its settings nothing could be purged: outside production the site runs as with none.
    if (!ok && !isProduction) cdnPurge = "none";
  }

  // The embedded database belongs to one process: with it, jobs can only run inside the server.
  if (env.JOB_WORKER === "off" && !env.DATABASE_URL) errors.push("JOB_WORKER=off needs DATABASE_URL: a separate worker cannot open the embedded database");

  if (env.FACEBOOK_PAGE_TOKEN && !env.FACEBOOK_PAGE_ID) errors.push(missing("FACEBOOK_PAGE_ID"));

  if (env.SMTP_URL && !/^smtps?:\/\//.test(env.SMTP_URL)) errors.push("SMTP_URL must start with smtp:// or smtps://");
  if (env.REDIS_URL && !/^rediss?:\/\//.test(env.REDIS_URL)) errors.push("REDIS_URL must start with redis:// or rediss://");
  const pushProblems = vapidProblems(env);
  errors.push(...pushProblems);

  if (isProduction) {
    if (!env.BETTER_AUTH_SECRET) {
      // Production keeps working on a fresh machine: the secret is generated once and kept in DATA_DIR
      // (see server/ops/secrets.server.ts). Say so, because several processes must then share that folder.
      warnings.push("BETTER_AUTH_SECRET is not set: a generated secret kept in DATA_DIR is used");
    } else if (env.BETTER_AUTH_SECRET.length < 32) {
      errors.push("BETTER_AUTH_SECRET must be at least 32 characters in production");
    }
  }

  // Example or development values: a warning everywhere, as the spec says.
  const checked = [
    "DATABASE_URL",
    "CDN_URL",
    "BUNNY_STORAGE_API_KEY",
    "BUNNY_STORAGE_ZONE",
    "BUNNY_STREAM_LIBRARY_ID",
    "BUNNY_STREAM_CDN_HOSTNAME",
    "BUNNY_STREAM_API_KEY",
    "FACEBOOK_PAGE_TOKEN",
    "BUNNY_API_KEY",
    "CLOUDFLARE_API_TOKEN",
    "S3_ENDPOINT",
    "S3_ACCESS_KEY_ID",
    "S3_SECRET_ACCESS_KEY",
    "BETTER_AUTH_SECRET",
    "PUBLIC_URL",
  ] as const;
  for (const name of checked) {
    const value = env[name];
    if (typeof value === "string" && value && looksLikeExampleValue(value) && !(name === "PUBLIC_URL" && !isProduction)) {
      warnings.push(looksExample(name));
    }
  }

  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, "");
  const secretValues = [
    env.BETTER_AUTH_SECRET,
    env.BUNNY_STORAGE_API_KEY,
    env.BUNNY_STREAM_API_KEY,
    env.BUNNY_STREAM_TOKEN_KEY,
    env.FACEBOOK_PAGE_TOKEN,
    env.S3_SECRET_ACCESS_KEY,
    env.S3_ACCESS_KEY_ID,
    env.METRICS_TOKEN,
    env.VAPID_PRIVATE_KEY,
    env.BUNNY_API_KEY,
    env.CLOUDFLARE_API_TOKEN,
    passwordOf(env.DATABASE_URL),
    passwordOf(env.SMTP_URL),
    passwordOf(env.REDIS_URL),
  ].filter((v): v is string => typeof v === "string" && v.length >= 6);

  const config: Config = {
    ...env,
    isProduction,
    dataDir: path.resolve(env.DATA_DIR),
    publicUrl,
    databaseDriver: database,
    drivers: {
      database,
      storage,
      video,
      mail: env.SMTP_URL ? "smtp" : "outbox",
      cache: env.REDIS_URL ? "redis" : "memory",
      social: env.FACEBOOK_PAGE_TOKEN && env.FACEBOOK_PAGE_ID ? "graph-api" : "off",
      push: env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY && !pushProblems.length ? "web-push" : "off",
      cdnPurge,
    },
    secretValues,
  };
  return { config, errors, warnings };
}

/** base64url of `bytes` bytes, without padding (what `web-push generate-vapid-keys` prints). */
const isBase64Url = (value: string, bytes: number) => /^[A-Za-z0-9_-]+$/.test(value) && Buffer.from(value, "base64url").length === bytes;

/** The VAPID settings' problems: both keys or neither, each of its P-256 shape, a mailto: or https: subject. */
function vapidProblems(env: Env): string[] {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = env;
  if (!publicKey && !privateKey) return subject ? ["VAPID_SUBJECT is set without VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY"] : [];
  const problems: string[] = [];
  if (!publicKey || !privateKey) problems.push(`${missing(publicKey ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY")} (the VAPID keys go in pairs)`);
  // Never the value itself: the private key is a secret.
  if (publicKey && !(isBase64Url(publicKey, 65) && Buffer.from(publicKey, "base64url")[0] === 4)) {
    problems.push("VAPID_PUBLIC_KEY must be a P-256 public key in base64url (65 bytes), as `npx web-push generate-vapid-keys` prints it");
  }
  if (privateKey && !isBase64Url(privateKey, 32)) {
    problems.push("VAPID_PRIVATE_KEY must be a P-256 private key in base64url (32 bytes), as `npx web-push generate-vapid-keys` prints it");
  }
  if (subject && !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(subject)) problems.push("VAPID_SUBJECT must be a mailto: or https: address");
  return problems;
}

function passwordOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

let current: Config | undefined;

/** The checked configuration of this process. Reads `process.env` once. */
export function getConfig(): Config {
  if (!current) current = adopt(checkConfig(process.env).config);
  return current;
}

/**
 * The configuration's one effect outside this module: the formatter of domain/format.ts writes this process's
 * dates and digits as DATE_CALENDARS and DIGITS say (the browser adopts the same from publicConfig()).
 */
function adopt(config: Config): Config {
  configureFormat(formatSettingsOf(config));
  return config;
}

const formatSettingsOf = (config: Config) => ({ digits: config.DIGITS, calendars: config.DATE_CALENDARS });

/** For tests and scripts that start the app with another environment. */
export function resetConfig() {
  current = undefined;
}

/**
 * Start-up check: logs errors and warnings, and refuses to start in production when anything is wrong.
 * Returns the config; throws `ConfigError` in production so the caller exits non-zero.
 */
export class ConfigError extends CodedError {
  declare readonly code: "CONFIG_INVALID";
  constructor(public problems: string[]) {
    super("CONFIG_INVALID", PRODUCTION_REFUSAL, { level: "fatal", context: { problems: problems.length } });
  }
}

export function startupCheck(
  raw: Record<string, string | undefined>,
  log: { warn: (m: string) => void; error: (m: string) => void; info: (m: string) => void },
): Config {
  const { config, errors, warnings } = checkConfig(raw);
  for (const w of warnings) log.warn(w);
  for (const e of errors) log.error(e);
  if (errors.length && config.isProduction) throw new ConfigError(errors);
  current = adopt(config);
  const d = config.drivers;
  log.info(
    `drivers: database=${d.database} storage=${d.storage} video=${d.video} mail=${d.mail} cache=${d.cache} social=${d.social} push=${d.push} cdn-purge=${d.cdnPurge}` +
      (d.database === "pglite" ? ` (data in ${path.join(config.dataDir, "db")})` : ""),
  );
  return config;
}

/** The part of the configuration the browser may see. Nothing secret belongs here. */
export function publicConfig(config: Config = getConfig()) {
  return {
    siteName: config.SITE_NAME,
    siteNameFr: config.SITE_NAME_FR,
    siteDescription: config.SITE_DESCRIPTION,
    logoUrl: config.SITE_LOGO_URL,
    logoFallbackUrl: config.SITE_LOGO_FALLBACK_URL,
    publicUrl: config.publicUrl,
    social: {
      facebook: config.SOCIAL_FACEBOOK_URL ?? null,
      twitter: config.SOCIAL_TWITTER_URL ?? null,
      instagram: config.SOCIAL_INSTAGRAM_URL ?? null,
      youtube: config.SOCIAL_YOUTUBE_URL ?? null,
    },
    contact: { email: config.CONTACT_EMAIL, phone: config.CONTACT_PHONE, address: config.CONTACT_ADDRESS, addressFr: config.CONTACT_ADDRESS_FR },
    /** DATE_CALENDARS and DIGITS, which the browser's formatter adopts before rendering (app/root.tsx). */
    format: formatSettingsOf(config),
  };
}
export type PublicConfig = ReturnType<typeof publicConfig>;
