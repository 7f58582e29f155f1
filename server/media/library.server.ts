/**
 * The media library (decision 0120): every uploaded image, audio file and PDF, one row of `library_files` each,
 * keyed by the public URL the content columns store, so an item keeps working with no join and a file is found
 * from any column that holds it. Videos stay in the video library (`videos`, /admin/videos); the library lists
 * them beside the files under the "video" filter.
 *
 * Uploads are recorded where they complete (a content form's image: server/content/newsroom/form.server.ts; the
 * files tus endpoint: server/media/storage/file-uploads.server.ts; the demo seed). Usage is read from the
 * content itself (file columns and rich-text bodies, from the content-type registry), never kept twice.
 */
import fs from "node:fs";
import path from "node:path";
import { and, eq, getTableName, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import sharp from "sharp";
import { normalizeArabic } from "#domain/arabic.ts";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";
import { parseSizedImage } from "#domain/image-sources.ts";
import {
  CENTERED,
  clampFocal,
  LIBRARY_MAX_PAGE_SIZE,
  LIBRARY_PAGE_SIZE,
  LIBRARY_QUERY_MAX,
  type LibraryDetails,
  type LibraryFile,
  type LibraryFilter,
  type LibraryKind,
  type LibraryPage,
  type LibraryPatch,
  type LibraryUsage,
} from "#domain/library.ts";
import { can, type AccessProfile, type Permission } from "#server/auth/permissions.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { libraryFiles, videos } from "#server/db/schema.server.ts";
import { CONTENT_TABLES, columnOf } from "#server/content/registry.server.ts";
import { invalidate } from "#server/content/cache.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import type { Storage } from "./storage/driver.server.ts";
import { removeImage } from "./storage/images.server.ts";
import { getVideoLibrary } from "./video/index.server.ts";

/** The database or an open transaction on it. */
type Db = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Where the video library's items are managed. */
export const VIDEO_ADMIN_HREF = "/admin/videos";

// ---- Where content uses a file (from the registry) ----

type UsageSource = { type: string; segment: string; table: string; urlColumns: string[]; bodyColumns: string[] };

const column = (type: (typeof ALL_CONTENT_TYPES)[number]["type"], key: string): PgColumn | undefined => columnOf(type, key);

/**
 * Each type's columns that hold a file's address (image, audio, file, captions and video fields, and the
 * picture columns the forms do not show: a media item's thumbnail, an article author's photo) and its
 * rich-text bodies (the form's, and the French body beside it).
 */
const USAGE_SOURCES: readonly UsageSource[] = ALL_CONTENT_TYPES.map((def) => {
  const names = (keys: string[]) => [...new Set(keys.map((key) => column(def.type, key)?.name).filter((name): name is string => Boolean(name)))];
  const fileFields = def.fields.filter((f) => ["image", "audio", "file", "captions", "video"].includes(f.kind)).map((f) => f.column);
  const bodyFields = def.fields.filter((f) => f.kind === "richtext").map((f) => f.column);
  return {
    type: def.type,
    segment: def.segment,
    table: getTableName(CONTENT_TABLES[def.type]),
    urlColumns: names([...fileFields, "thumbnailUrl", "authorImageUrl"]),
    bodyColumns: names([...bodyFields, ...bodyFields.map((c) => `${c}Fr`)]),
  };
});

const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/** The condition "this row of `source` uses `url`" (the URL an SQL expression). */
function usesUrl(source: UsageSource, alias: string, url: SQL): SQL {
  const t = sql.raw(alias);
  const parts = [
    ...source.urlColumns.map((c) => sql`${t}.${ident(c)} = ${url}`),
    // In a body the address is an attribute's value: quoted, so a longer address that begins the same is not it.
    ...source.bodyColumns.map((c) => sql`strpos(${t}.${ident(c)}, '"' || ${url} || '"') > 0`),
  ];
  return parts.length ? sql.join(parts, sql` or `) : sql`false`;
}

/** How many items of every type use `url` (an SQL expression), as an SQL expression. */
function usageCountSql(url: SQL): SQL {
  const counts = USAGE_SOURCES.map((s) => sql`(select count(*) from ${ident(s.table)} u where ${usesUrl(s, "u", url)})`);
  return sql`(${sql.join(counts, sql` + `)})::int`;
}

/** The content items that use a file (or a video, by its id): type, id, title and their editor's address. */
export async function usageOf(db: Db, url: string): Promise<LibraryUsage[]> {
  if (!url) return [];
  const parts = USAGE_SOURCES.map(
    (s) =>
      // published: the public rule of server/content/published.server.ts, on the raw alias.
      sql`select ${s.type}::text as type, ${s.segment}::text as segment, u.id, u.title, (u.status = 'published' and u.publish_date <= now()) as published from ${ident(s.table)} u where ${usesUrl(s, "u", sql`${url}::text`)}`,
  );
  const rows = rowsOf<{ type: string; segment: string; id: number; title: string; published: boolean | string }>(
    await db.execute(sql`${sql.join(parts, sql` union all `)} order by published desc, type, id limit 500`),
  );
  return rows.map((r) => ({
    type: r.type,
    id: Number(r.id),
    title: r.title,
    href: `/admin/${r.segment}/${r.id}`,
    published: r.published === true || r.published === "t",
  }));
}

// ---- Reading ----

type Row = typeof libraryFiles.$inferSelect;

function toLibraryFile(row: Row, usageCount: number): LibraryFile {
  return {
    id: row.id,
    url: row.url,
    kind: row.kind,
    mime: row.mime,
    bytes: row.bytes === null ? null : Number(row.bytes),
    width: row.width,
    height: row.height,
    name: row.originalName,
    alt: { ar: row.altAr, fr: row.altFr },
    caption: { ar: row.captionAr, fr: row.captionFr },
    credit: { ar: row.creditAr, fr: row.creditFr },
    focal: clampFocal({ x: row.focalX, y: row.focalY }),
    createdAt: new Date(row.createdAt).toISOString(),
    usageCount,
    thumbnail: row.kind === "image" ? row.url : null,
    href: null,
  };
}

/** The text the search reads: the name (as a reader would type it) and every text, folded (domain/arabic.ts). */
function searchTextOf(row: Pick<Row, "originalName" | "altAr" | "altFr" | "captionAr" | "captionFr" | "creditAr" | "creditFr">): string {
  let name = row.originalName;
  try {
    name = decodeURIComponent(name);
  } catch {
    // a name with a stray % stays as written
  }
  const words = [name, name.replace(/\.[^.]*$/, "").replace(/[-_.]+/g, " "), row.altAr, row.altFr, row.captionAr, row.captionFr, row.creditAr, row.creditFr];
  return ` ${normalizeArabic(words.join(" "))} `;
}

/** Fills the search text of rows that have none yet (the migration's backfill): their name decoded too. */
export async function completeSearchText(db: Db): Promise<number> {
  const rows = await db
    .select()
    .from(libraryFiles)
    .where(sql`${libraryFiles.searchText} is null`)
    .limit(1000);
  for (const row of rows) {
    let name = row.originalName;
    try {
      name = decodeURIComponent(name);
    } catch {
      // kept as written
    }
    await db
      .update(libraryFiles)
      .set({ originalName: name, searchText: searchTextOf({ ...row, originalName: name }) })
      .where(eq(libraryFiles.id, row.id));
  }
  return rows.length;
}

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The words of a search, folded as the stored text is. */
function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  return [...new Set(normalizeArabic(q.slice(0, LIBRARY_QUERY_MAX)).split(" ").filter(Boolean))].slice(0, 8);
}

export type ListLibraryOptions = { q?: string; kind?: LibraryFilter | null; page: number; pageSize: number };

/**
 * One page of the library, newest first: files of a kind, the video library's videos ("video"), or both
 * (no kind). `q` matches the name, alt text, caption and credit in either language (Arabic-aware: the folds of
 * domain/arabic.ts, so أحمد finds احمد), or a video's title.
 */
export async function listLibrary(db: Db, options: ListLibraryOptions): Promise<LibraryPage> {
  const pageSize = Math.min(Math.max(1, Math.floor(options.pageSize) || LIBRARY_PAGE_SIZE), LIBRARY_MAX_PAGE_SIZE);
  const page = Math.max(1, Math.floor(options.page) || 1);
  const terms = searchTerms(options.q);
  const kind = options.kind ?? null;
  if (terms.length) await completeSearchText(db);

  const parts: SQL[] = [];
  if (kind !== "video") {
    const where = [kind ? sql`f.kind = ${kind}` : sql`true`, ...terms.map((t) => sql`f.search_text like ${`%${likeEscape(t)}%`}`)];
    parts.push(sql`select f.id, f.url, f.kind, f.created_at as sort_at, null::text as title, null::text as thumbnail_file_name
      from library_files f where ${sql.join(where, sql` and `)}`);
  }
  if (kind === null || kind === "video") {
    let guids: string[] | null = null;
    if (terms.length) {
      const all = await db.select({ guid: videos.guid, title: videos.title, description: videos.description }).from(videos);
      guids = all.filter((v) => terms.every((t) => ` ${normalizeArabic(`${v.title} ${v.description ?? ""}`)} `.includes(t))).map((v) => v.guid);
    }
    const where =
      guids === null
        ? sql`true`
        : guids.length
          ? sql`v.guid in (${sql.join(
              guids.map((g) => sql`${g}`),
              sql`, `,
            )})`
          : sql`false`;
    parts.push(sql`select 0 as id, v.guid as url, 'video' as kind, v.date_uploaded as sort_at, v.title, v.thumbnail_file_name
      from videos v where ${where}`);
  }
  const offset = (page - 1) * pageSize;
  const rows = rowsOf<{ id: number; url: string; kind: string; sort_at: string | Date; title: string | null; total: number; usage: number }>(
    await db.execute(sql`with entries as (${sql.join(parts, sql` union all `)})
      select e.id, e.url, e.kind, e.sort_at, e.title, count(*) over ()::int as total, ${usageCountSql(sql`e.url`)} as usage
      from entries e order by e.sort_at desc, e.id desc, e.url limit ${pageSize} offset ${offset}`),
  );
  let total = rows[0]?.total ?? 0;
  if (!rows.length && page > 1) {
    // Past the last page: the count still says how many there are.
    const counted = rowsOf<{ total: number }>(
      await db.execute(sql`with entries as (${sql.join(parts, sql` union all `)}) select count(*)::int as total from entries`),
    );
    total = counted[0]?.total ?? 0;
  }

  const ids = rows.filter((r) => r.kind !== "video").map((r) => Number(r.id));
  const files = ids.length ? await db.select().from(libraryFiles).where(inArray(libraryFiles.id, ids)) : [];
  const byId = new Map(files.map((f) => [f.id, f]));
  const items: LibraryFile[] = [];
  for (const r of rows) {
    if (r.kind === "video") {
      items.push({
        id: 0,
        url: r.url,
        kind: "video",
        mime: null,
        bytes: null,
        width: null,
        height: null,
        name: r.title ?? "",
        alt: { ar: "", fr: "" },
        caption: { ar: "", fr: "" },
        credit: { ar: "", fr: "" },
        focal: { ...CENTERED },
        createdAt: new Date(r.sort_at).toISOString(),
        usageCount: Number(r.usage),
        thumbnail: null,
        href: VIDEO_ADMIN_HREF,
      });
      continue;
    }
    const row = byId.get(Number(r.id));
    if (row) items.push(toLibraryFile(row, Number(r.usage)));
  }
  return { items, total: Number(total), page, pageSize };
}

/** One file with its usage count, or null. */
export async function getLibraryFile(db: Db, id: number): Promise<LibraryFile | null> {
  const [row] = await db.select().from(libraryFiles).where(eq(libraryFiles.id, id));
  if (!row) return null;
  return toLibraryFile(row, await usageCount(db, row.url));
}

/** One file by its address, or null. */
export async function getLibraryFileByUrl(db: Db, url: string): Promise<LibraryFile | null> {
  const [row] = await db.select().from(libraryFiles).where(eq(libraryFiles.url, url));
  if (!row) return null;
  return toLibraryFile(row, await usageCount(db, row.url));
}

async function usageCount(db: Db, url: string): Promise<number> {
  const [row] = rowsOf<{ usage: number }>(await db.execute(sql`select ${usageCountSql(sql`${url}::text`)} as usage`));
  return Number(row?.usage ?? 0);
}

/**
 * What the public pages and the pickers need of each of `urls` that is in the library: alt text, caption, credit,
 * focal point and size. URLs not in the library are absent from the map.
 */
export async function libraryDetailsByUrl(db: Db, urls: readonly string[]): Promise<Map<string, LibraryDetails>> {
  const wanted = [...new Set(urls.filter((u): u is string => typeof u === "string" && u.length > 0 && u.length <= 2048))];
  const out = new Map<string, LibraryDetails>();
  if (!wanted.length) return out;
  const rows = await db.select().from(libraryFiles).where(inArray(libraryFiles.url, wanted));
  for (const row of rows) {
    out.set(row.url, {
      kind: row.kind as LibraryDetails["kind"],
      alt: { ar: row.altAr, fr: row.altFr },
      caption: { ar: row.captionAr, fr: row.captionFr },
      credit: { ar: row.creditAr, fr: row.creditFr },
      focal: clampFocal({ x: row.focalX, y: row.focalY }),
      width: row.width,
      height: row.height,
    });
  }
  return out;
}

// ---- Writing ----

/** Changes a file's texts and focal point (a checked patch: domain/library.ts parseLibraryPatch); null when it is not there. */
export async function updateLibraryFile(db: Db, id: number, patch: LibraryPatch): Promise<LibraryFile | null> {
  const [current] = await db.select().from(libraryFiles).where(eq(libraryFiles.id, id));
  if (!current) return null;
  const next = {
    altAr: patch.alt?.ar ?? current.altAr,
    altFr: patch.alt?.fr ?? current.altFr,
    captionAr: patch.caption?.ar ?? current.captionAr,
    captionFr: patch.caption?.fr ?? current.captionFr,
    creditAr: patch.credit?.ar ?? current.creditAr,
    creditFr: patch.credit?.fr ?? current.creditFr,
  };
  const focal = patch.focal ? clampFocal(patch.focal) : { x: current.focalX, y: current.focalY };
  const [row] = await db
    .update(libraryFiles)
    .set({ ...next, focalX: focal.x, focalY: focal.y, searchText: searchTextOf({ ...current, ...next }), updatedAt: new Date() })
    .where(eq(libraryFiles.id, id))
    .returning();
  if (!row) return null;
  // Pages that show this picture render its new texts and focal point (the read and page caches, and other processes through the bus).
  invalidate("library");
  return toLibraryFile(row, await usageCount(db, row.url));
}

/**
 * Gives these files their alt text where they have none in either language (the demo seed's pictures, issue 39):
 * a text an editor wrote, in one language or both, is kept. Answers how many files it described. Run again, it
 * changes nothing, so an install seeded before the demo pictures had alt text gets it from `npm run seed`.
 */
export async function describeFilesWithoutAlt(db: Db, alts: ReadonlyMap<string, { ar: string; fr: string }>): Promise<number> {
  if (!alts.size) return 0;
  const rows = await db
    .select()
    .from(libraryFiles)
    .where(and(inArray(libraryFiles.url, [...alts.keys()]), eq(libraryFiles.altAr, ""), eq(libraryFiles.altFr, "")));
  for (const row of rows) {
    const alt = alts.get(row.url)!;
    await db
      .update(libraryFiles)
      .set({ altAr: alt.ar, altFr: alt.fr, searchText: searchTextOf({ ...row, altAr: alt.ar, altFr: alt.fr }) })
      .where(and(eq(libraryFiles.id, row.id), eq(libraryFiles.altAr, ""), eq(libraryFiles.altFr, "")));
  }
  if (rows.length) invalidate("library");
  return rows.length;
}

/** The storage key of a URL the storage serves, or null (a demo file outside it, an external address). */
export function storageKeyOf(storage: Storage, url: string): string | null {
  const marker = "library-key-marker";
  const prefix = storage.publicUrl(marker).slice(0, -marker.length);
  if (!prefix || !url.startsWith(prefix)) return null;
  try {
    const key = url.slice(prefix.length).split("/").map(decodeURIComponent).join("/");
    return key && !key.split("/").includes("..") ? key : null;
  } catch {
    return null;
  }
}

/**
 * Removes a file's row, then its stored file (an image with its resized copies) through the storage. Answers
 * the removed file, or null when it was not there. The caller decides about usage (usageOf) first. A file the
 * storage fails to remove is logged, not restored: the row is what makes it reachable from the back-office.
 */
export async function deleteLibraryFile(db: Db, id: number, storage?: Storage): Promise<LibraryFile | null> {
  const [row] = await db.delete(libraryFiles).where(eq(libraryFiles.id, id)).returning();
  if (!row) return null;
  invalidate("library");
  const key = storage ? storageKeyOf(storage, row.url) : null;
  if (storage && key) {
    await (row.kind === "image" ? removeImage(storage, key) : storage.remove(key)).catch((error: unknown) =>
      logger.warn({ err: error, url: row.url }, "library file removed from the library but not from the storage"),
    );
  }
  return toLibraryFile(row, 0);
}

/** Deleting a library file needs what deleting an item needs: a published item that uses it loses its picture. */
export const LIBRARY_DELETE_PERMISSION = "content.delete" satisfies Permission;

export type LibraryDeletion =
  { state: "deleted"; file: LibraryFile; usage: LibraryUsage[] } | { state: "forbidden" } | { state: "not-found" } | { state: "in-use"; usage: LibraryUsage[] };

/**
 * The one library delete of the back-office (the JSON API's DELETE and the library screen's action): refused to an
 * account without LIBRARY_DELETE_PERMISSION whether the file is used or not, checked before anything is read; a
 * file in use is only deleted when `force` says the editor saw its uses, which the answer lists either way.
 */
export async function deleteLibraryFileAs(
  db: Db,
  who: AccessProfile | null,
  id: number,
  { force, storage }: { force: boolean; storage?: Storage },
): Promise<LibraryDeletion> {
  if (!can(who, LIBRARY_DELETE_PERMISSION)) return { state: "forbidden" };
  const file = await getLibraryFile(db, id);
  if (!file) return { state: "not-found" };
  const usage = await usageOf(db, file.url);
  if (usage.length && !force) return { state: "in-use", usage };
  const removed = await deleteLibraryFile(db, id, storage);
  return removed ? { state: "deleted", file: removed, usage } : { state: "not-found" };
}

const EXTENSION_MIME: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  flac: "audio/flac",
  pdf: "application/pdf",
};

/** The type a stored name says (the stored file was checked by its bytes before it was named). */
export const mimeOfUrl = (url: string): string | null => EXTENSION_MIME[/\.([A-Za-z0-9]+)$/.exec(url.replace(/[?#].*$/, ""))?.[1]?.toLowerCase() ?? ""] ?? null;

export type RecordedUpload = {
  url: string;
  kind: LibraryKind;
  mime?: string | null;
  bytes?: number | null;
  width?: number | null;
  height?: number | null;
  originalName?: string | null;
  uploadedBy?: string | null;
};

/**
 * Records an upload in the library (or refreshes the facts of a URL already there, keeping its texts). An
 * image's size comes from its stored name when not given (decision 0104).
 */
export async function recordLibraryFile(db: Db, upload: RecordedUpload): Promise<LibraryFile> {
  const sized = upload.kind === "image" ? parseSizedImage(upload.url) : null;
  const originalName = (upload.originalName ?? "").slice(0, 255) || decodeURIComponent(upload.url.replace(/[?#].*$/, "").replace(/^.*\//, ""));
  const values = {
    url: upload.url,
    kind: upload.kind,
    mime: upload.mime ?? mimeOfUrl(upload.url),
    bytes: upload.bytes ?? null,
    width: upload.width ?? sized?.width ?? null,
    height: upload.height ?? sized?.height ?? null,
    originalName,
    uploadedBy: upload.uploadedBy ?? null,
  };
  const searchText = searchTextOf({ originalName, altAr: "", altFr: "", captionAr: "", captionFr: "", creditAr: "", creditFr: "" });
  const [row] = await db
    .insert(libraryFiles)
    .values({ ...values, searchText })
    .onConflictDoUpdate({
      target: libraryFiles.url,
      set: { mime: values.mime, bytes: values.bytes, width: values.width, height: values.height, updatedAt: new Date() },
    })
    .returning();
  return toLibraryFile(row!, 0);
}

/** Records an upload and never fails the upload over it: a file not in the library is still in the content. */
export async function recordLibraryFileQuietly(db: Db, upload: RecordedUpload): Promise<void> {
  await recordLibraryFile(db, upload).catch((error: unknown) => logger.warn({ err: error, url: upload.url }, "upload not recorded in the library"));
}

/**
 * Records every file the content uses and the library lacks (what migration 0010 did for the content of its
 * day), with the size and dimensions of those under `uploadsDir` (served at /uploads). The seed calls it after
 * inserting the demo content. Answers how many rows it added.
 */
export async function registerContentFiles(db: Db, { uploadsDir, urlPrefix = "/uploads" }: { uploadsDir?: string; urlPrefix?: string } = {}): Promise<number> {
  const found = new Map<string, LibraryKind>();
  for (const s of USAGE_SOURCES) {
    const t = ident(s.table);
    for (const c of s.urlColumns) {
      const kindExpr = s.table === "media" && c === "file_url" ? sql`media_type` : sql`null`;
      const rows = rowsOf<{ url: string; kind: string | null }>(
        await db.execute(sql`select distinct ${ident(c)} as url, ${kindExpr}::text as kind from ${t} where ${ident(c)} like '/%' or ${ident(c)} like 'http%'`),
      );
      for (const r of rows) {
        const ext = /\.([A-Za-z0-9]+)$/.exec(r.url.replace(/[?#].*$/, ""))?.[1]?.toLowerCase() ?? "";
        const mime = EXTENSION_MIME[ext];
        const kind = (
          r.kind && ["image", "audio", "document"].includes(r.kind)
            ? r.kind
            : mime
              ? mime.startsWith("image/")
                ? "image"
                : mime.startsWith("audio/")
                  ? "audio"
                  : "document"
              : null
        ) as LibraryKind | null;
        if (kind && !found.has(r.url)) found.set(r.url, kind);
      }
    }
    for (const c of s.bodyColumns) {
      const rows = rowsOf<{ url: string }>(
        await db.execute(
          sql`select distinct (regexp_matches(${ident(c)}, '<img[^>]*\\ssrc="([^"]+)"', 'g'))[1] as url from ${t} where ${ident(c)} like '%<img%'`,
        ),
      );
      for (const r of rows) if (/^(\/|https?:\/\/)/.test(r.url) && !found.has(r.url)) found.set(r.url, "image");
    }
  }
  if (!found.size) return 0;
  const known = new Set(
    (
      await db
        .select({ url: libraryFiles.url })
        .from(libraryFiles)
        .where(inArray(libraryFiles.url, [...found.keys()]))
    ).map((r) => r.url),
  );
  let added = 0;
  for (const [url, kind] of found) {
    if (known.has(url) || url.length > 2048) continue;
    const facts = uploadsDir ? await localFacts(uploadsDir, urlPrefix, url, kind) : {};
    await recordLibraryFile(db, { url, kind, ...facts });
    added++;
  }
  return added;
}

/** Size and (images) dimensions of a file served from `uploadsDir`, when it is there. */
async function localFacts(uploadsDir: string, urlPrefix: string, url: string, kind: LibraryKind): Promise<{ bytes?: number; width?: number; height?: number }> {
  if (!url.startsWith(`${urlPrefix}/`)) return {};
  let file: string;
  try {
    const segments = url
      .slice(urlPrefix.length + 1)
      .split("/")
      .map(decodeURIComponent);
    if (segments.some((s) => s === ".." || s === "" || s.includes(path.sep))) return {};
    file = path.join(uploadsDir, ...segments);
  } catch {
    return {};
  }
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat?.isFile()) return {};
  if (kind !== "image") return { bytes: stat.size };
  const meta = await sharp(file, { limitInputPixels: 50_000_000 })
    .metadata()
    .catch(() => null);
  return { bytes: stat.size, width: meta?.width, height: meta?.height };
}

/** Videos of a page with their thumbnail, as the video library shows it (local files, the demo pictures, the host's). */
export async function withVideoThumbnails(items: LibraryFile[]): Promise<LibraryFile[]> {
  if (!items.some((item) => item.kind === "video")) return items;
  const library = getVideoLibrary();
  return Promise.all(
    items.map(async (item) => {
      if (item.kind !== "video") return item;
      const video = await library.get(item.url).catch(() => null);
      return video ? { ...item, thumbnail: library.playbackFor(video).thumbnail ?? null } : item;
    }),
  );
}
