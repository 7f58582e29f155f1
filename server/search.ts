/**
 * Site search over published articles, news, programs, podcasts and coverages (public-site.md §7 "Search";
 * media is not searched). Matching runs on text passed through the one Arabic normaliser, `ar_normalize()`
 * in SQL (drizzle/0002_search.sql), twin of normalizeArabic() in app/lib/arabic.ts:
 * - a full-text match of every query word anywhere in the title, excerpt or description and content
 *   (French variants included), served by the `<table>_search_fts_idx` GIN indexes;
 * - or the query as a part of the title ("مدرس" finds "المدرسة"), served by the `<table>_title_trgm_idx`
 *   trigram indexes.
 * Each type gives at most ceil(20 / number of types) rows, newest first; the lists are merged, sorted by
 * publish date (newest first) and cut to 20. See docs/decisions/0014-arabic-search.md.
 */
import { desc, sql, type SQL } from "drizzle-orm";
import { union, type PgColumn } from "drizzle-orm/pg-core";
import type { Database } from "./db/client.ts";
import { articles, coverages, news, podcasts, programs } from "./db/schema.ts";
import { isPublished } from "./content/published.ts";
import { translate } from "./i18n.server.ts";
import { normalizeArabic } from "../app/lib/arabic.ts";
import { QUERY_MAX_LENGTH, QUERY_MIN_LENGTH, SEARCH_TOTAL, SEARCH_TYPES, type SearchType } from "../app/lib/search.ts";

export { SEARCH_TYPES, SEARCH_TOTAL, QUERY_MIN_LENGTH, QUERY_MAX_LENGTH, type SearchType };

export type SearchResult = {
  type: SearchType;
  id: number;
  title: string;
  titleFr: string | null;
  excerpt: string | null;
  excerptFr: string | null;
  imageUrl: string | null;
  publishDate: Date;
  href: string;
};

// ---- Input ----

export const SEARCH_ERROR_CODES = ["QUERY_TOO_SHORT", "QUERY_TOO_LONG", "QUERY_MALFORMED", "INVALID_TYPE"] as const;
export type SearchErrorCode = (typeof SEARCH_ERROR_CODES)[number];

/** The translation key of each error (app/locales/<lang>/common.json → search.errors). */
export const SEARCH_ERROR_KEYS: Record<SearchErrorCode, string> = {
  QUERY_TOO_SHORT: "search.errors.queryTooShort",
  QUERY_TOO_LONG: "search.errors.queryTooLong",
  QUERY_MALFORMED: "search.errors.queryMalformed",
  INVALID_TYPE: "search.errors.invalidType",
};

/** Bad search input: a 400 for the caller. Branch on `code`; `message` is the Arabic text for logs and APIs. */
export class SearchInputError extends Error {
  readonly status = 400;
  constructor(readonly code: SearchErrorCode) {
    super(translate("ar", SEARCH_ERROR_KEYS[code]));
    this.name = "SearchInputError";
  }
}

// Tabs and line breaks separate words; every other control character (C0, DEL, C1) and the bidi overrides
// that make text display differently from what it says are dropped.
const LINE_CONTROLS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
const CONTROLS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/**
 * The query as searched: control characters stripped, spaces collapsed, trimmed, 2–200 characters, and at
 * least two letters or digits once normalised ("ًً" or "؟!" are not a search). A query string that was not
 * valid UTF-8 (it decodes to U+FFFD) is malformed.
 */
export function parseSearchQuery(raw: string): string {
  if (raw.includes("\uFFFD")) throw new SearchInputError("QUERY_MALFORMED");
  const query = raw.replace(LINE_CONTROLS, " ").replace(CONTROLS, "").replace(/ {2,}/g, " ").trim();
  const length = [...query].length;
  if (length > QUERY_MAX_LENGTH) throw new SearchInputError("QUERY_TOO_LONG");
  if (length < QUERY_MIN_LENGTH || [...normalizeArabic(query).replaceAll(" ", "")].length < QUERY_MIN_LENGTH) {
    throw new SearchInputError("QUERY_TOO_SHORT");
  }
  return query;
}

/** `type` values (repeated or comma-separated) → the types to search; none means all five. */
export function parseSearchTypes(values: readonly string[] | undefined): SearchType[] {
  const wanted = (values ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const v of wanted) if (!(SEARCH_TYPES as readonly string[]).includes(v)) throw new SearchInputError("INVALID_TYPE");
  return wanted.length === 0 ? [...SEARCH_TYPES] : SEARCH_TYPES.filter((t) => wanted.includes(t));
}

// ---- Queries ----

/**
 * The searched document of a row. It must stay, column for column, the expression of the table's
 * `_search_fts_idx` index in drizzle/0002_search.sql, or PostgreSQL cannot use the index; the literals are
 * written inline (not as parameters) for the same reason.
 */
function searchDocument(columns: PgColumn[]): SQL {
  const text = sql.join(
    columns.map((c) => sql`coalesce(${c}, '')`),
    sql` || ' ' || `,
  );
  return sql`to_tsvector('simple', ar_normalize(${text}))`;
}

const HREF: Record<SearchType, string> = {
  articles: "/articles/",
  news: "/news/",
  programs: "/programs/",
  podcasts: "/podcasts/",
  coverages: "/coverage/",
};

type SearchableTable = typeof articles | typeof news | typeof programs | typeof podcasts | typeof coverages;
type Source = { table: SearchableTable; columns: Record<string, PgColumn | SQL.Aliased | SQL>; document: SQL };

/** What each type shows on a result card, and the text its full-text index covers. */
const SOURCES: Record<SearchType, Source> = {
  articles: {
    table: articles,
    columns: {
      id: articles.id,
      title: articles.title,
      titleFr: articles.titleFr,
      excerpt: articles.excerpt,
      excerptFr: articles.excerptFr,
      imageUrl: articles.imageUrl,
      publishDate: articles.publishDate,
      pageSlug: articles.pageSlug,
    },
    document: searchDocument([articles.title, articles.titleFr, articles.excerpt, articles.excerptFr, articles.content, articles.contentFr]),
  },
  news: {
    table: news,
    columns: {
      id: news.id,
      title: news.title,
      titleFr: news.titleFr,
      excerpt: news.excerpt,
      excerptFr: news.excerptFr,
      imageUrl: news.imageUrl,
      publishDate: news.publishDate,
      pageSlug: news.pageSlug,
    },
    document: searchDocument([news.title, news.titleFr, news.excerpt, news.excerptFr, news.content, news.contentFr]),
  },
  programs: {
    table: programs,
    columns: {
      id: programs.id,
      title: programs.title,
      titleFr: programs.titleFr,
      excerpt: programs.description,
      excerptFr: sql<string | null>`null::text`,
      imageUrl: programs.imageUrl,
      publishDate: programs.publishDate,
      pageSlug: programs.pageSlug,
    },
    document: searchDocument([programs.title, programs.titleFr, programs.description, programs.content]),
  },
  podcasts: {
    table: podcasts,
    columns: {
      id: podcasts.id,
      title: podcasts.title,
      titleFr: podcasts.titleFr,
      excerpt: podcasts.description,
      excerptFr: sql<string | null>`null::text`,
      imageUrl: podcasts.imageUrl,
      publishDate: podcasts.publishDate,
      pageSlug: podcasts.pageSlug,
    },
    document: searchDocument([podcasts.title, podcasts.titleFr, podcasts.description, podcasts.content]),
  },
  coverages: {
    table: coverages,
    columns: {
      id: coverages.id,
      title: coverages.title,
      titleFr: coverages.titleFr,
      excerpt: coverages.excerpt,
      excerptFr: sql<string | null>`null::text`,
      imageUrl: coverages.imageUrl,
      publishDate: coverages.publishDate,
      pageSlug: coverages.pageSlug,
    },
    document: searchDocument([coverages.title, coverages.titleFr, coverages.excerpt, coverages.content]),
  },
};

type Row = Omit<SearchResult, "type" | "href"> & { pageSlug: string };

/**
 * The newest `limit` published rows of one type matching the query. The two ways to match are two arms of a
 * UNION rather than one OR: each arm then uses its own index, and PostgreSQL never recomputes the document's
 * tsvector to recheck a row the trigram index found (measured on 20,000 articles: ~80 ms against ~3 s).
 */
function searchType(db: Database, type: SearchType, query: string, limit: number): Promise<Row[]> {
  const { table, columns, document } = SOURCES[type];
  // drizzle cannot type a select over a union of tables; every source has the same columns (see SOURCES).
  const t = table as typeof articles;
  const arm = (match: SQL) =>
    db
      .select(columns as { id: typeof articles.id })
      .from(t)
      .where(isPublished(t, match))
      .orderBy(desc(t.publishDate), desc(t.id))
      .limit(limit);
  const fullText = sql`${document} @@ plainto_tsquery('simple', ar_normalize(${query}))`;
  const partOfTitle = sql`ar_normalize(${t.title}) like '%' || ar_normalize(${query}) || '%'`;
  return union(arm(fullText), arm(partOfTitle)).orderBy(desc(t.publishDate), desc(t.id)).limit(limit) as unknown as Promise<Row[]>;
}

/**
 * Published items matching `query`, newest first, at most 20: ceil(20 / number of types) per type, merged
 * and cut (public-site.md §7). Throws SearchInputError (400) for a query or type that is not acceptable.
 */
export async function searchPublished(db: Database, query: string, options: { types?: readonly string[] } = {}): Promise<SearchResult[]> {
  const q = parseSearchQuery(query);
  const types = parseSearchTypes(options.types);
  const perType = Math.ceil(SEARCH_TOTAL / types.length);
  const lists = await Promise.all(
    types.map(async (type) => (await searchType(db, type, q, perType)).map(({ pageSlug, ...row }) => ({ type, ...row, href: HREF[type] + pageSlug }))),
  );
  // Same date: the order of SEARCH_TYPES, then the newer id, so the cut is the same on every run.
  return lists
    .flat()
    .sort((a, b) => b.publishDate.getTime() - a.publishDate.getTime() || SEARCH_TYPES.indexOf(a.type) - SEARCH_TYPES.indexOf(b.type) || b.id - a.id)
    .slice(0, SEARCH_TOTAL);
}
