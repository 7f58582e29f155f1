/**
 * What a search result shows: its card's columns, read by primary key once the hits are known (one small query
 * whose plan is apart from the hits', with its byline), and its snippet, cut around the first match of the start of its body.
 * Used by server/search/search.server.ts.
 */
import { sql, type SQL } from "drizzle-orm";
import { matchRanges, type QueryAnalysis } from "#domain/arabic.ts";
import { definitionOf, type ContentType } from "#domain/content-types/index.ts";
import { bylineSql, type BylineAuthor } from "#server/content/authors.server.ts";
import { columnOf, tableOf } from "#server/content/registry.server.ts";
import { searchedTypes } from "./search-triggers.server.ts";

/** How much of a body is read for a snippet, and how long a snippet is. */
const SNIPPET_SCAN = 4000;
const SNIPPET_SCAN_SQL = sql.raw(String(SNIPPET_SCAN));
const SNIPPET_LENGTH = 200;

export type Hit = { rank: number; type: ContentType; item_id: number; publish_date: Date | string };

/**
 * The columns a card shows, on a type's table: its title, its summary (the excerpt or the description), its
 * image, its slug and the start of its body, each in French too where the table has the column (articles
 * and news do).
 */
function cardColumns(type: ContentType): SQL {
  const column = (key: string) => {
    const found = columnOf(type, key);
    return found ? sql.identifier(found.name) : sql`null`;
  };
  const summary = definitionOf(type).fields.find((f) => f.name === definitionOf(type).summaryField)!.column;
  const start = (key: string) => (columnOf(type, key) ? sql`left(${column(key)}, ${SNIPPET_SCAN_SQL})` : sql`null`);
  return sql`title, title_fr, ${column(summary)} as excerpt, ${column(`${summary}Fr`)} as excerpt_fr, image_url, page_slug,
    ${start("content")} as content, ${start("contentFr")} as content_fr`;
}

/**
 * What the cards of these hits show, with their bylines (the section cards' own column, `bylineSql`), in one
 * small query (a plan apart from the hits' own is cheaper to make; one round trip, not one more per type).
 * Every searched type's arm is there, with no id when the page has none of it, so that the statement's text is
 * the same for every page: it is prepared and planned once per connection (server/search/search.server.ts
 * `executePrepared`), where parsing and planning a text per mix of types was 1–2 ms of every search (issue 47).
 * Bodies are cut: a snippet needs their start.
 */
export function cardsSql(hits: Hit[]): SQL {
  return sql.join(
    searchedTypes().map(
      ({ type, table }) =>
        sql`select ${type}::text as type, id, ${cardColumns(type)}, ${bylineSql(type, tableOf(type).id)} as bylines from ${sql.identifier(table)}
          where id = any(${sql.param(hits.filter((h) => h.type === type).map((h) => Number(h.item_id)))}::int[])`,
    ),
    sql` union all `,
  );
}

export type CardRow = {
  type: ContentType;
  id: number;
  title: string;
  title_fr: string | null;
  excerpt: string | null;
  excerpt_fr: string | null;
  image_url: string | null;
  page_slug: string;
  content: string | null;
  content_fr: string | null;
  bylines: BylineAuthor[] | null;
};

/** Markup and runs of spaces out: the text a reader sees. */
const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&#?[a-zA-Z0-9]+;/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** About SNIPPET_LENGTH characters of `text` around its first match, cut at spaces, with ellipses; null without a match. */
export function snippetOf(text: string | null, analysis: QueryAnalysis, length = SNIPPET_LENGTH): string | null {
  if (!text) return null;
  const plain = plainText(text);
  const [first] = matchRanges(plain, analysis, 1);
  if (!first) return null;
  let start = Math.max(0, first[0] - Math.floor(length / 3));
  let end = Math.min(plain.length, start + length);
  if (start > 0) start = plain.indexOf(" ", start) + 1 || start;
  if (end < plain.length) end = plain.lastIndexOf(" ", end) > first[1] ? plain.lastIndexOf(" ", end) : end;
  return `${start > 0 ? "…" : ""}${plain.slice(start, end).trim()}${end < plain.length ? "…" : ""}`;
}
