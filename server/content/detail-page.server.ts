/**
 * The loaders of the one detail page (public-site.md §2 "Detail screens") for every content type, and of
 * the staff preview of that page.
 *
 * Public: the item by slug or id, published and due only, cached under the type's tag; /{type}/{id}, a slug
 * in another case and an old slug an editor has since changed answer with a permanent redirect to the
 * item's URL; a missing item is a 404; a failed load sends the reader home with the spec's toast; related
 * items degrade to an empty list. Rich-text bodies are sanitised again before they reach the page.
 */
import { redirect } from "react-router";
import { neutralPath } from "#domain/addresses.ts";
import { ALL_CONTENT_TYPES, definitionOf, editorStatusOf, publicUrl, type ContentType } from "#domain/content-types/index.ts";
import type { Body, DetailItem, DetailPage, PageCorrection, RelatedItem } from "#domain/detail-view.ts";
import { correctionsOf } from "./corrections.server.ts";
import type { BylineAuthor } from "#domain/authors.ts";
import { isVideoId } from "#domain/video-source.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";
import { cached, type CacheTag } from "./cache.server.ts";
import {
  bodyColumnOf,
  findItemForStaff,
  findPublishedItem,
  findRedirectedItemId,
  listRelated,
  parseItemKey,
  summaryColumnOf,
  type ItemKey,
} from "./detail.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { loadOrGoHome, notFound, orEmpty } from "#server/http/responses.server.ts";
import { referencedType, referenceFields } from "./registry.server.ts";
import { hooksOf } from "./types/index.server.ts";
import type { DetailOptions } from "./types/hooks.server.ts";
import { richTextForPage } from "./rich-text.server.ts";
import { imageDetailsOf } from "./image-details.server.ts";
import { tagsOfItems } from "./tags.server.ts";

/** A stored body that starts with a tag came from the rich-text editor; the demo's and the old site's are plain text. */
const HTML_BODY = /^\s*<[a-z][a-z0-9]*[\s/>]/i;

function bodyOf(stored: unknown): Body | null {
  if (typeof stored !== "string" || !stored.trim()) return null;
  // Stored HTML was cleaned on save; cleaning it again here means no stored row can reach a page unchecked.
  return HTML_BODY.test(stored) ? { html: richTextForPage(stored) } : { text: stored };
}

type Shaped = Omit<DetailPage, "related">;

/** The row as the page takes it: summary and body out of their type's columns, the body made safe. */
function shape(type: ContentType, row: DetailItem): Shaped {
  const summaryColumn = summaryColumnOf(type);
  const bodyColumn = bodyColumnOf(type);
  const moved = bodyColumn ? [summaryColumn, `${summaryColumn}Fr`, bodyColumn, `${bodyColumn}Fr`] : [summaryColumn, `${summaryColumn}Fr`];
  const { bylines, ...rest } = row as DetailItem & { bylines?: unknown };
  const item: DetailItem = { ...rest };
  for (const column of moved) delete item[column];
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    type,
    url: publicUrl(type, row.pageSlug, row.id),
    item,
    summary: text(row[summaryColumn]),
    summaryFr: text(row[`${summaryColumn}Fr`]),
    body: bodyColumn ? bodyOf(row[bodyColumn]) : null,
    bodyFr: bodyColumn ? bodyOf(row[`${bodyColumn}Fr`]) : null,
    authors: Array.isArray(bylines) ? (bylines as BylineAuthor[]) : [],
  };
}

function relatedOf(db: Database, type: ContentType, item: DetailItem): Promise<DetailPage["related"]> {
  const withUrls = (rows: RelatedItem[]) => rows.map((r) => ({ ...r, url: publicUrl(type, r.pageSlug, r.id) }));
  return orEmpty(`related ${type}`, () => cached(`related:${type}:${item.id}`, [type], async () => withUrls(await listRelated(db, type, item))));
}

type Lookup = { page: Shaped } | { movedTo: string } | null;

/** The published item a key names, or where an old slug of it moved to. */
async function lookUp(db: Database, type: ContentType, key: ItemKey): Promise<Lookup> {
  const item = await findPublishedItem(db, type, key);
  if (item) return { page: shape(type, item) };
  if (!("slug" in key)) return null;
  const id = await findRedirectedItemId(db, type, key.slug);
  const moved = id === null ? null : await findPublishedItem(db, type, { id });
  return moved ? { movedTo: publicUrl(type, moved.pageSlug, moved.id) } : null;
}

/**
 * The type whose detail pages live under a path, in any language's address ("/podcasts/…", "/fr/podcasts/…" →
 * podcast); any other is the spec's internal error.
 */
export function detailTypeOfPath(pathname: string): ContentType {
  const path = neutralPath(pathname);
  const def = ALL_CONTENT_TYPES.find((d) => d.detailPage && path.startsWith(`${d.publicPath}/`));
  if (!def) throw new Error("Invalid content type");
  return def.type;
}

/**
 * What a detail page reads besides its own type: categories and author profiles, the items its reference fields
 * name (an episode's program), and what its hooks say it reads (a program: whether it has published episodes).
 */
const detailTags = (type: ContentType): CacheTag[] => [
  type,
  "categories",
  "authors",
  ...referenceFields(type).map(referencedType),
  ...(hooksOf(type).detailReads ?? []),
];

/**
 * The public detail page of a type's item named by a URL segment (a slug, or an id); `options` carries what the
 * address says besides (a live coverage's `?before=`), for the type's `detailExtras` hook.
 */
export async function loadDetailPage(db: Database, type: ContentType, slugOrId: string | undefined, options: DetailOptions = {}): Promise<DetailPage> {
  const key = parseItemKey(slugOrId);
  if (!key) notFound();
  const found = await loadOrGoHome(type, () => cached(`detail:${type}:${JSON.stringify(key)}`, detailTags(type), () => lookUp(db, type, key)));
  if (!found) notFound();
  if ("movedTo" in found) throw redirect(found.movedTo, 301);
  // Ids, other cases and other Unicode forms of the slug: the slug URL is the one to share and index.
  if (slugOrId !== found.page.item.pageSlug) throw redirect(found.page.url, 301);
  const [related, videoFile, tags, corrections, extras] = await Promise.all([
    relatedOf(db, type, found.page.item),
    plainVideoFileOf(type, found.page.item),
    tagsOfPage(db, type, found.page.item.id),
    correctionsOfPage(db, type, found.page.item.id),
    hooksOf(type).detailExtras?.(db, found.page, options),
  ]);
  const images = await imageDetailsOf(db, { item: found.page.item, related });
  return { ...found.page, ...extras, related, images, tags, corrections, ...(videoFile ? { videoFile } : {}) };
}

/**
 * The item's corrections (decision 0140), cached under the type's tag: adding one invalidates it with the page.
 * None when they cannot be read (the story still shows).
 */
function correctionsOfPage(db: Database, type: ContentType, id: number): Promise<PageCorrection[]> {
  return orEmpty(`corrections ${type}`, () =>
    cached(`corrections:${type}:${id}`, [type], async () =>
      (await correctionsOf(db, type, id)).map((c) => ({ text: c.text, textFr: c.text_fr, at: c.created_at })),
    ),
  );
}

/** The item's tags (decision 0122), cached until the type's items or the tags change; none when they cannot be read. */
function tagsOfPage(db: Database, type: ContentType, id: number): Promise<NonNullable<DetailPage["tags"]>> {
  return orEmpty(`tags ${type}`, () => cached(`tags:${type}:${id}`, [type, "tags"], async () => (await tagsOfItems(db, type, [id])).get(id) ?? []));
}

/**
 * The direct file of the item's hosted video, for the browser's own player when there is no JavaScript (the
 * enhanced player asks the playback API itself). Null for a URL source (it plays as it is), no video, or a
 * library that cannot answer: the page never fails for it.
 */
async function plainVideoFileOf(type: ContentType, item: DetailItem): Promise<string | null> {
  const field = definitionOf(type).detail.media?.video;
  const source = field ? item[field] : null;
  if (!isVideoId(source)) return null;
  const playback = await getVideoLibrary()
    .playback(String(source).toLowerCase())
    .catch(() => null);
  return playback?.mp4 ?? null;
}

/**
 * The staff preview: any item of a type by id, draft and scheduled included, shaped as readers will see it.
 * Never cached and never counted as a view. The caller checks the permission (requirePermission with the
 * type's `permissions.write`) before calling; a missing item is a 404.
 */
export async function loadPreviewPage(db: Database, type: ContentType, id: number): Promise<DetailPage> {
  const row = Number.isInteger(id) && id > 0 ? await findItemForStaff(db, type, id) : null;
  if (!row) notFound();
  const related = await relatedOf(db, type, row);
  const images = await imageDetailsOf(db, { item: row, related });
  const tags = (await tagsOfItems(db, type, [row.id])).get(row.id) ?? [];
  const corrections = (await correctionsOf(db, type, row.id)).map((c) => ({ text: c.text, textFr: c.text_fr, at: c.created_at }));
  return { ...shape(type, row), related, images, tags, corrections, preview: { status: editorStatusOf(row.status, row.publishDate) } };
}
