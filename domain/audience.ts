/**
 * Audience figures (issue 45, docs/decisions/0147-audience-figures.md): what a page's beacon may say, and how the
 * server reads where a reader came from and on what. Pure functions of strings, shared by the collector
 * (server/analytics/collect.server.ts), the pages that name themselves (app/root.tsx) and the dashboard.
 */
import { ALL_CONTENT_TYPES, CONTENT_TYPE_DEFINITIONS, type ContentType } from "./content-types/index.ts";
import { LANGUAGES, type Language } from "./language.ts";

/** Where a view came from, in the dashboard's order. */
export const SOURCES = ["search", "facebook", "whatsapp", "telegram", "x", "newsletter", "push", "other", "direct"] as const;
export type Source = (typeof SOURCES)[number];

/** The device class of the browser that sent the beacon. */
export const DEVICES = ["mobile", "tablet", "desktop"] as const;
export type Device = (typeof DEVICES)[number];

/** The page's language: its address's. */
export const AUDIENCE_LANGS: readonly Language[] = LANGUAGES;

/** The reading pages that list a section rather than a type (their path's first segment is their key). */
const SECTION_PAGES = ["culture", "politics", "literature", "emirates", "opinion", "videos", "facebook"] as const;

/**
 * The page keys of every public page that is not an item's own (an item's is `"<type>:<id>"`): the home page, each
 * content type's list (by the type's name: /news is `news`, /programs `program`), the sections, search, the
 * archive, tag and author pages (one key each, whatever the tag or author), the legal and contact pages (`static`)
 * and the rest (`other`).
 */
export const AUDIENCE_PAGES = [
  "home",
  ...ALL_CONTENT_TYPES.map((d) => d.type),
  ...SECTION_PAGES,
  "search",
  "archive",
  "tag",
  "author",
  "static",
  "other",
] as readonly string[];

const PAGE_OF_SEGMENT: Readonly<Record<string, string>> = {
  ...Object.fromEntries(ALL_CONTENT_TYPES.map((d) => [d.publicPath.slice(1), d.type])),
  ...Object.fromEntries(SECTION_PAGES.map((s) => [s, s])),
  search: "search",
  archive: "archive",
  tags: "tag",
  authors: "author",
  contact: "static",
  privacy: "static",
  terms: "static",
  sitemap: "static",
};

/** Pages that are not reading: the account pages and the first-run set-up (the React application), debugging. */
const NOT_READING = /^\/(?:auth|setup|debug|admin|api|404)(?:\/|$)/;

/**
 * The page key of a reading page's language-neutral path (an item's detail page names its item itself), or null
 * for a page that is not counted. A list's own key only at its own address (/news, not /news/…).
 */
export function audiencePageOf(neutralPath: string): string | null {
  if (neutralPath === "/" || neutralPath === "") return "home";
  if (NOT_READING.test(neutralPath)) return null;
  const segments = neutralPath.split("/").filter(Boolean);
  const page = PAGE_OF_SEGMENT[segments[0]];
  if (!page) return "other";
  const single = segments.length === 1;
  // Types' and sections' keys are their lists; under them (a coverage's entry) is another page.
  if (ALL_CONTENT_TYPES.some((d) => d.type === page) || (SECTION_PAGES as readonly string[]).includes(page)) return single ? page : "other";
  return page;
}

/** The page key of an item's own page. */
export const itemPageKey = (type: ContentType, id: number) => `${type}:${id}`;

/** The item a page key names, or null for a page that is not an item's. */
export function itemOfPage(page: string): { contentType: ContentType; contentId: number } | null {
  const match = /^([a-z]+):(\d{1,10})$/.exec(page);
  if (!match || !Object.hasOwn(CONTENT_TYPE_DEFINITIONS, match[1])) return null;
  const id = Number(match[2]);
  return id > 0 && id <= 2_147_483_647 ? { contentType: match[1] as ContentType, contentId: id } : null;
}

/** utm_source values the site's own links and the usual senders use. */
const UTM_SOURCES: readonly (readonly [RegExp, Source])[] = [
  [/^newsletter$/, "newsletter"],
  [/^push$/, "push"],
  [/^(?:whatsapp|wa)$/, "whatsapp"],
  [/^(?:telegram|tg)$/, "telegram"],
  [/^(?:facebook|fb|messenger)$/, "facebook"],
  [/^(?:x|twitter)$/, "x"],
  [/^(?:google|bing|yahoo|duckduckgo|ddg|yandex|baidu|ecosia|qwant|brave|startpage|naver|seznam|sogou|search)(?:[^a-z]|$)/, "search"],
];

/**
 * Referrer hosts (and the Android apps that send `android-app://<package>/` as the referrer). Search engines
 * include Google News and every Google and Yahoo country domain.
 */
const REFERRER_HOSTS: readonly (readonly [RegExp, Source])[] = [
  [
    /(?:^|\.)(?:google\.[a-z.]+|bing\.com|yahoo\.[a-z.]+|duckduckgo\.com|yandex\.[a-z.]+|baidu\.com|ecosia\.org|qwant\.com|startpage\.com|naver\.com|seznam\.cz|sogou\.com|so\.com)$|^search\.brave\.com$|^com\.google\.android\.googlequicksearchbox$/,
    "search",
  ],
  [/(?:^|\.)(?:facebook\.com|fb\.com|fb\.me|messenger\.com)$|^com\.facebook\.(?:katana|orca|lite)$/, "facebook"],
  [/^wa\.me$|(?:^|\.)whatsapp\.com$|^com\.whatsapp(?:\.w4b)?$/, "whatsapp"],
  [/^t\.me$|^telegram\.me$|(?:^|\.)telegram\.org$|^org\.telegram\.messenger$/, "telegram"],
  [/^(?:x\.com|t\.co)$|(?:^|\.)twitter\.com$|^com\.twitter\.android$/, "x"],
];

const bareHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/^www\./, "")
    .replace(/\.$/, "");

/**
 * Where a view came from: the page address's `utm_source` first, else the host of `document.referrer` (the site's
 * own: `direct`, a click within the site), else `direct`. `siteHost`: the site's host (PUBLIC_URL's), or several.
 */
export function sourceOf({
  utmSource,
  referrer,
  siteHost,
}: {
  utmSource?: string | null;
  referrer?: string | null;
  siteHost?: string | readonly string[] | null;
}): Source {
  const utm = utmSource?.trim().toLowerCase();
  if (utm) return UTM_SOURCES.find(([pattern]) => pattern.test(utm))?.[1] ?? "other";
  if (!referrer) return "direct";
  let host: string;
  try {
    host = bareHost(new URL(referrer).hostname);
  } catch {
    return "direct";
  }
  if (!host) return "direct";
  const own = (typeof siteHost === "string" ? [siteHost] : (siteHost ?? [])).filter(Boolean).map((h) => bareHost(h.replace(/:\d+$/, "")));
  if (own.includes(host)) return "direct";
  return REFERRER_HOSTS.find(([pattern]) => pattern.test(host))?.[1] ?? "other";
}

/** The device class of a User-Agent: tablets first (an Android without "Mobile" is one), then phones, else a desktop. */
export function deviceOf(userAgent: string | null | undefined): Device {
  const ua = userAgent ?? "";
  if (/iPad|Tablet|PlayBook|Silk\/|Kindle|Android(?!.*Mobile)/i.test(ua)) return "tablet";
  if (/Mobi|iPhone|iPod|Android|Windows Phone|IEMobile|Opera Mini|BlackBerry|BB10|KaiOS/i.test(ua)) return "mobile";
  return "desktop";
}

/** A search query as it is counted: trimmed, whitespace collapsed, lower-cased, at most 100 characters. */
export function normalizeSearchQuery(q: string): string {
  return q.replace(/\s+/g, " ").trim().toLowerCase().slice(0, BEACON_LIMITS.q).trim();
}

/** A campaign as stored: `utm_campaign` as sent when it is at most 64 of [A-Za-z0-9_.-], else none. */
export function campaignOf(value: string | null | undefined): string | null {
  return value && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : null;
}

/** What a beacon may carry (POST /api/views). */
export const BEACON_LIMITS = { bytes: 1024, ref: 500, src: 40, camp: 64, q: 100 } as const;

/** A beacon, read: the page key (an item's `"<type>:<id>"` or one of AUDIENCE_PAGES) and what the page added. */
export type Beacon = {
  page: string;
  lang?: Language;
  /** document.referrer. */
  ref?: string;
  /** utm_source and utm_campaign of the page's address. */
  src?: string;
  camp?: string;
  /** On the search page: the query and the number of results. */
  q?: string;
  n?: number;
};

const optionalString = (value: unknown, max: number) => value === undefined || (typeof value === "string" && value.length <= max);

/**
 * A beacon's body: `{"type":"news","id":42}` (an item with a page of its own) or `{"page":"home"}`, with the optional
 * `lang`, `ref`, `src`, `camp`, and on the search page `q` and `n`. Null when it is not one of these.
 */
export function parseBeacon(text: string): Beacon | null {
  if (new TextEncoder().encode(text).length > BEACON_LIMITS.bytes) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  let page: string;
  if (b.page !== undefined) {
    if (b.type !== undefined || b.id !== undefined || typeof b.page !== "string" || !AUDIENCE_PAGES.includes(b.page)) return null;
    page = b.page;
  } else {
    const { type, id } = b;
    if (typeof type !== "string" || !Object.hasOwn(CONTENT_TYPE_DEFINITIONS, type)) return null;
    if (!CONTENT_TYPE_DEFINITIONS[type as ContentType].detailPage) return null;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return null;
    page = itemPageKey(type as ContentType, id);
  }
  if (b.lang !== undefined && !(LANGUAGES as readonly unknown[]).includes(b.lang)) return null;
  if (!optionalString(b.ref, BEACON_LIMITS.ref) || !optionalString(b.src, BEACON_LIMITS.src) || !optionalString(b.camp, BEACON_LIMITS.camp)) return null;
  // A query and its count belong to the search page only.
  if ((b.q !== undefined || b.n !== undefined) && page !== "search") return null;
  if (!optionalString(b.q, BEACON_LIMITS.q)) return null;
  if (b.n !== undefined && !(typeof b.n === "number" && Number.isSafeInteger(b.n) && b.n >= 0)) return null;
  const beacon: Beacon = { page };
  if (b.lang !== undefined) beacon.lang = b.lang as Language;
  for (const key of ["ref", "src", "camp", "q"] as const) {
    const value = b[key];
    if (typeof value === "string" && value !== "") beacon[key] = value;
  }
  if (typeof b.n === "number") beacon.n = b.n;
  return beacon;
}
