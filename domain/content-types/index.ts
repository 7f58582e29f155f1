/**
 * The content-type registry: one definition per type the newsroom publishes, one file each beside this one
 * (./article.ts …), in the manner of a Payload collection. Everything that differs between the types lives
 * in its file, as data: fields with their rules and the spec's messages (back-office.md §5), list columns
 * with the spec's display types (§2), the admin segment, the SQL table, the public path, the detail view,
 * permissions, search columns, file folders, the view counter, and its place on the dashboard and the upload
 * hub. Everything that lists types — routes, the admin menu and dashboard, the editor and JSON API, sitemap,
 * RSS, search, cache tags, permissions — loops over these definitions: adding a seventh type is adding its
 * file and its line here (and its table).
 *
 * It runs on both sides and holds no zod: the definitions are plain data, and the form schemas are built
 * from the fields in ./schema.ts, where a form is validated. So a reading page's card link (`publicUrl`)
 * costs the browser the definitions (about 2.8 KB gzip, in one chunk the hydrated pages share) but no form
 * code (~9 KB of zod). The server maps a definition's `table` to its Drizzle table in
 * server/content/registry.server.ts.
 */
import article from "./article.ts";
import news from "./news.ts";
import coverage from "./coverage.ts";
import podcast from "./podcast.ts";
import program from "./program.ts";
import media from "./media.ts";
import type { TypeDefinition } from "./define.ts";

/** Every definition, in the admin menu's order (back-office.md §2). */
const DEFINITIONS = [article, news, coverage, podcast, program, media] as const;

export type ContentType = (typeof DEFINITIONS)[number]["type"];
/** One type's definition with its literal table name and card fields (server/content/listings.server.ts types its cards by them). */
export type DefinitionOf<T extends ContentType> = Extract<(typeof DEFINITIONS)[number], { type: T }>;
/** A definition, its `type` one of the registry's. */
export type ContentTypeDefinition = TypeDefinition<ContentType>;

export const CONTENT_TYPES: readonly ContentType[] = DEFINITIONS.map((d) => d.type);

export const CONTENT_TYPE_DEFINITIONS = Object.fromEntries(DEFINITIONS.map((d) => [d.type, d])) as unknown as Readonly<
  Record<ContentType, ContentTypeDefinition>
>;
export const ALL_CONTENT_TYPES: readonly ContentTypeDefinition[] = DEFINITIONS;

export function definitionOf(type: ContentType): ContentTypeDefinition {
  return CONTENT_TYPE_DEFINITIONS[type];
}

/** The definition behind /admin/{segment} or /api/admin/{segment}, or undefined for any other segment. */
export function contentTypeBySegment(segment: string | undefined): ContentTypeDefinition | undefined {
  return ALL_CONTENT_TYPES.find((d) => d.segment === segment);
}

/** The one public path builder: where a reader opens an item (cards, sitemap, RSS, search, related items). */
/** A program's own podcast feed: its published episodes (issue 32). */
export const programFeedPath = (slug: string) => `/programs/${encodeURIComponent(slug)}/feed.xml`;

export function publicUrl(type: ContentType, slug: string, id?: number): string {
  const { publicPath, detailPage } = CONTENT_TYPE_DEFINITIONS[type];
  if (!detailPage) return id === undefined ? publicPath : `${publicPath}#media-${id}`;
  return `${publicPath}/${encodeURIComponent(slug)}`;
}

/** Whether a type's category field offers the category of that slug (every category when its definition names none). */
export function offersCategory(def: Pick<ContentTypeDefinition, "categories">, slug: string): boolean {
  return !def.categories || def.categories.includes(slug);
}

/** The categories a type's form offers, in its definition's order (or as given when it names none). */
export function categoriesOf<C extends { slug: string }>(def: Pick<ContentTypeDefinition, "categories">, all: readonly C[]): C[] {
  if (!def.categories) return [...all];
  const order = def.categories;
  return all.filter((c) => order.includes(c.slug)).sort((a, b) => order.indexOf(a.slug) - order.indexOf(b.slug));
}

/** The definitions in the order of the dashboard's cards, or of the upload hub's (back-office.md §2). */
export const inOrderOf = (place: "dashboard" | "upload"): readonly ContentTypeDefinition[] =>
  [...ALL_CONTENT_TYPES].sort((a, b) => a[place].position - b[place].position);

export {
  AUTHORS_MAX,
  EDITOR_STATUSES,
  isRelationField,
  RELATION_KINDS,
  TAG_NAME_MAX,
  TAGS_MAX,
  TRANSCRIPT_MAX,
  camel,
  type ApiFieldMap,
  type CardDefinition,
  type CardField,
  type ColumnDefinition,
  type ColumnDisplay,
  type DetailView,
  type EditorStatus,
  type FactView,
  type FieldDefinition,
  type FieldKind,
} from "./define.ts";
export { editorStatusOf, PAGE_SLUG_MAX, PAGE_SLUG_PATTERN, parsePublishDate, slugify } from "./publishing.ts";
