/**
 * Bulk actions of the back-office lists (issue 29, "Bulk work"): publish, unpublish, schedule, change the
 * category, add a tag or delete many items of one type at once, chosen by their ids or by the list's filter
 * (the same text and status filter as listForStaff, computed here, on the server).
 *
 * An action is all or nothing: one transaction changes every item, keeps a revision and the search row of each
 * changed item (a delete removes them, with the item's slug redirects, as deleteItem does), and only then, once,
 * the type's cached reads are dropped and the scheduled-publishing timer re-armed. An item that cannot be changed
 * (gone meanwhile, a database refusal) leaves every item as it was. At most MAX_BULK_ITEMS items per action.
 *
 * Who may run which action (the type's write permission; its delete permission for a delete) is the caller's
 * check, as for every write of newsroom/write.server.ts. See docs/how-it-works.md, "Bulk actions".
 */
import { and, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import {
  CONTENT_TYPE_DEFINITIONS,
  EDITOR_STATUSES,
  offersCategory,
  parsePublishDate,
  type ContentType,
  type EditorStatus,
} from "#domain/content-types/index.ts";
import { editorStatusOf, isPublishDate } from "#domain/content-types/publishing.ts";
import { TAG_NAME_MAX, TAGS_MAX } from "#domain/content-types/define.ts";
import { BULK_ACTIONS, isBulkAction, MAX_BULK_ITEMS, type BulkAction } from "#domain/bulk-actions.ts";
import type { Database } from "#server/db/client.server.ts";
import { categories } from "#server/db/schema.server.ts";
import { AppError, ForbiddenError, NotFoundError, ValidationError } from "#server/http/errors.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";
import { addTagToItems, tagMatchKey, tagsOfItems } from "./tags.server.ts";
import { getForStaff, statusFilter, textFilter } from "./newsroom/read.server.ts";
import { afterWrite, indexForSearch, keepRevision, removeItems, type Author } from "./newsroom/write.server.ts";
import { anyBreaking, queueOnePushAlert } from "#server/push/alerts.server.ts";
import { isIdNumber, parseId } from "#domain/ids.ts";
import { recordAudit } from "./audit.server.ts";
import { invalidate } from "./cache.server.ts";
import { notYourItem, ownItemsSql, type Actor } from "./ownership.server.ts";
import { canEditOthers, canPublish } from "#server/auth/permissions.server.ts";

export { BULK_ACTIONS, MAX_BULK_ITEMS, type BulkAction };

/** A bulk request's JSON body: at most MAX_BULK_ITEMS ids and a few fields. */
export const MAX_BULK_JSON_BYTES = 64 * 1024;

export type BulkFilter = {
  q?: string;
  status?: EditorStatus | "all";
  /** Set by the caller (never read from a body): only the items this account created or is credited on (issue 40). */
  ownedBy?: string;
};

/** The actions that change what readers see: they need content.publish (issue 40, decision 0137). */
export const PUBLISHING_BULK_ACTIONS: readonly BulkAction[] = ["publish", "unpublish", "schedule"];

/**
 * The rights of issue 40 on a parsed bulk request, for the JSON API and the list's bar alike: publishing,
 * unpublishing and scheduling need content.publish (else 403 PUBLISH_PERMISSION); without content.others the
 * request is narrowed to the caller's own items (named ids: all of them, or 403 NOT_YOUR_ITEM). The type's write
 * and delete permissions are the caller's checks, as before.
 */
export function authorizeBulk(request: BulkRequest, actor: Actor): BulkRequest {
  if (PUBLISHING_BULK_ACTIONS.includes(request.action) && !canPublish(actor.profile)) throw new ForbiddenError("rights.publishNeeded", "PUBLISH_PERMISSION");
  return canEditOthers(actor.profile) ? request : { ...request, ownedBy: actor.id };
}

/** What to do and to which items: their ids, or every item the list's filter matches. */
export type BulkRequest = {
  action: BulkAction;
  selection: { ids: number[] } | { filter: BulkFilter };
  /** schedule: when (ISO, or the editor's datetime-local in the site's time), in the future. */
  publishDate?: string;
  /** category: one the type offers. */
  categoryId?: number;
  /** tag: its name. */
  tag?: string;
  /** publish: every item gets today's date; by default an item keeps an earlier (past) publish date (issue 40). */
  useToday?: boolean;
  /**
   * Set by the caller for an account without content.others (issue 40): named ids must all be its own (else 403
   * NOT_YOUR_ITEM, nothing done), a filter selects only its own.
   */
  ownedBy?: string;
};

export type BulkResult = { action: BulkAction; count: number; ids: number[] };

/** A request the endpoint cannot act on (its shape): 400 INVALID_BULK, one message per field (translation keys). */
const invalidBulk = (fields: Record<string, string>) => new ValidationError("newsroom.bulk.v.invalid", fields, { status: 400, code: "INVALID_BULK" });

/** More items than one action changes: 422 TOO_MANY_ITEMS. */
export class TooManyItemsError extends AppError {
  constructor() {
    super(422, "TOO_MANY_ITEMS", "newsroom.bulk.v.tooMany", { fields: { ids: "newsroom.bulk.v.tooMany" } });
  }
}

const BODY_KEYS = new Set(["action", "ids", "filter", "publish_date", "category_id", "tag", "use_today"]);
const FILTER_KEYS = new Set(["q", "status"]);

/**
 * A JSON body (docs/api.md, "Bulk actions") as a BulkRequest: `action`, either `ids` or `filter`, and what the
 * action needs. Anything else is refused with 400 INVALID_BULK and a message per field.
 */
export function parseBulkBody(body: Record<string, unknown>): BulkRequest {
  const fields: Record<string, string> = {};
  for (const key of Object.keys(body)) if (!BODY_KEYS.has(key)) fields[key.slice(0, 40).replace(/[^\w-]/g, "?")] = "newsroom.bulk.v.unknownKey";
  const action = body.action;
  if (!isBulkAction(action)) fields.action = "newsroom.bulk.v.action";
  let selection: BulkRequest["selection"] | undefined;
  if (body.ids !== undefined && body.filter !== undefined) fields.ids = "newsroom.bulk.v.idsOrFilter";
  else if (body.ids !== undefined) {
    const ids = body.ids;
    if (!Array.isArray(ids) || !ids.length) fields.ids = "newsroom.bulk.v.ids";
    else if (ids.length > MAX_BULK_ITEMS) throw new TooManyItemsError();
    else if (!ids.every(isIdNumber)) fields.ids = "newsroom.bulk.v.idsNumbers";
    else selection = { ids: [...new Set(ids as number[])] };
  } else if (body.filter !== undefined) {
    const filter = body.filter as Record<string, unknown> | null;
    if (!filter || typeof filter !== "object" || Array.isArray(filter) || Object.keys(filter).some((k) => !FILTER_KEYS.has(k))) {
      fields.filter = "newsroom.bulk.v.filter";
    } else if (filter.q !== undefined && (typeof filter.q !== "string" || filter.q.length > 200)) fields.filter = "newsroom.bulk.v.filterQ";
    else if (filter.status !== undefined && !(typeof filter.status === "string" && ["all", ...EDITOR_STATUSES].includes(filter.status))) {
      fields.filter = "newsroom.bulk.v.filterStatus";
    } else selection = { filter: { q: filter.q as string | undefined, status: filter.status as BulkFilter["status"] } };
  } else fields.ids = "newsroom.bulk.v.ids";

  const request = { action, selection } as BulkRequest;
  if (action === "schedule") {
    const at = body.publish_date;
    if (typeof at !== "string" || !at) fields.publish_date = "newsroom.bulk.v.dateMissing";
    else request.publishDate = at;
  }
  if (action === "category") {
    // In the categories' id range (domain/ids.ts): 2147483648 reached PostgreSQL, a 500 (issue 39).
    const id = parseId(body.category_id);
    if (id === null) fields.category_id = "newsroom.bulk.v.categoryMissing";
    else request.categoryId = id;
  }
  if (body.use_today !== undefined) {
    if (action !== "publish" || typeof body.use_today !== "boolean") fields.use_today = "bulkConfirm.v.useToday";
    else request.useToday = body.use_today;
  }
  if (action === "tag") {
    const tag = typeof body.tag === "string" ? body.tag.trim() : "";
    if (!tag || !tagMatchKey(tag)) fields.tag = "newsroom.bulk.v.tagMissing";
    else if (tag.length > TAG_NAME_MAX) fields.tag = "newsroom.bulk.v.tagLong";
    else request.tag = tag;
  }
  if (Object.keys(fields).length) throw invalidBulk(fields);
  return request;
}

/**
 * The ids of a type's items that the list's filter matches (listForStaff's text and status filter), newest id
 * first; TooManyItemsError past MAX_BULK_ITEMS.
 */
export async function idsMatching(db: Database, type: ContentType, filter: BulkFilter): Promise<number[]> {
  const t = tableOf(type);
  const rows = await db
    .select({ id: t.id })
    .from(t)
    .where(and(textFilter(type, filter.q), statusFilter(type, filter.status), filter.ownedBy ? ownItemsSql(type, filter.ownedBy) : undefined))
    .orderBy(sql`${t.id} desc`)
    .limit(MAX_BULK_ITEMS + 1);
  if (rows.length > MAX_BULK_ITEMS) throw new TooManyItemsError();
  return rows.map((r) => r.id);
}

/** The checked new publish time of a schedule: a date, in the future. */
function scheduledAt(value: string | undefined, now: Date): Date {
  if (!value || !isPublishDate(value)) throw new ValidationError("newsroom.bulk.v.date", { publish_date: "newsroom.bulk.v.date" });
  const at = parsePublishDate(value, now);
  if (at.getTime() <= now.getTime()) throw new ValidationError("newsroom.bulk.v.dateFuture", { publish_date: "newsroom.bulk.v.dateFuture" });
  return at;
}

/** The category of a category action: it exists, and the type's form offers it. */
async function offeredCategory(db: Database, type: ContentType, id: number | undefined): Promise<number> {
  const def = CONTENT_TYPE_DEFINITIONS[type];
  if (!columnOf(type, "categoryId") || !def.fields.some((f) => f.kind === "category")) {
    throw new ValidationError("newsroom.bulk.v.noCategories", { category_id: "newsroom.bulk.v.noCategories" });
  }
  const [found] = id ? await db.select({ id: categories.id, slug: categories.slug }).from(categories).where(eq(categories.id, id)).limit(1) : [];
  if (!found) throw new ValidationError("newsroom.bulk.v.categoryNotFound", { category_id: "newsroom.bulk.v.categoryNotFound" });
  if (!offersCategory(def, found.slug)) throw new ValidationError("newsroom.bulk.v.categoryNotOffered", { category_id: "newsroom.bulk.v.categoryNotOffered" });
  return found.id;
}

/**
 * Adds the tag to the items in the caller's transaction (the tags module, server/content/tags.server.ts): the ids
 * that gained it (an item that had it already is left alone). An item that would carry more than TAGS_MAX tags
 * refuses the action.
 */
async function addTag(tx: Database, type: ContentType, ids: number[], tag: string): Promise<number[]> {
  if (!CONTENT_TYPE_DEFINITIONS[type].fields.some((f) => f.kind === "tags"))
    throw new ValidationError("newsroom.bulk.v.noTags", { tag: "newsroom.bulk.v.noTags" });
  const before = await tagsOfItems(tx, type, ids);
  await addTagToItems(tx, type, ids, tag);
  const after = await tagsOfItems(tx, type, ids);
  const gained = ids.filter((id) => (after.get(id)?.length ?? 0) > (before.get(id)?.length ?? 0));
  if (gained.some((id) => (after.get(id)?.length ?? 0) > TAGS_MAX)) throw new ValidationError("newsroom.bulk.v.tagsFull", { tag: "newsroom.bulk.v.tagsFull" });
  return gained;
}

/**
 * Runs one bulk action on a type's items, all or nothing (see the top of this file). Returns how many items it
 * changed and their ids: an item the action would leave as it is (publishing a published item) is not counted,
 * gets no revision and keeps its updated_at.
 */
type AlertBefore = { id: number; status: EditorStatus; publish_date: string; urgent: boolean; category_id: string | null };

/** The facts of items that decide an alert (server/push/alerts.server.ts), as they are before an action. */
async function alertFactsOf(tx: Database, type: ContentType, ids: number[], now: Date): Promise<Map<number, AlertBefore>> {
  const t = tableOf(type);
  const category = columnOf(type, "categoryId");
  const rows = await tx
    .select({ id: t.id, status: t.status, publishDate: t.publishDate, urgent: t.urgent, ...(category ? { categoryId: category } : {}) })
    .from(t)
    .where(inArray(t.id, ids));
  return new Map(
    rows.map((r) => {
      const categoryId = (r as { categoryId?: number | null }).categoryId;
      const facts = { id: r.id, status: editorStatusOf(r.status, r.publishDate, now), publish_date: r.publishDate.toISOString(), urgent: r.urgent };
      return [r.id, { ...facts, category_id: categoryId == null ? null : String(categoryId) }];
    }),
  );
}

/** What an audit row says of a bulk action besides its items: the action, how it chose them and its arguments. */
function auditDetails(request: BulkRequest, at: Date | null, categoryId: number | null): Record<string, unknown> {
  const details: Record<string, unknown> = { bulk_action: request.action, selection: "ids" in request.selection ? "ids" : "filter" };
  if ("filter" in request.selection) details.filter = { q: request.selection.filter.q, status: request.selection.filter.status };
  if (request.action === "publish") details.use_today = request.useToday === true;
  if (at) details.publish_date = at.toISOString();
  if (categoryId !== null) details.category_id = categoryId;
  if (request.tag) details.tag = request.tag;
  return details;
}

export async function runBulkAction(db: Database, type: ContentType, request: BulkRequest, author: Author): Promise<BulkResult> {
  const now = new Date();
  // What the action needs is checked before anything is written.
  const at = request.action === "schedule" ? scheduledAt(request.publishDate, now) : null;
  const categoryId = request.action === "category" ? await offeredCategory(db, type, request.categoryId) : null;
  const t = tableOf(type);
  // Whether a breaking item (urgent, or in the breaking category) was among the changed, before or after: the
  // ticker of every page shows those, and its "live" tag is invalidated after the commit (issue 44).
  let breaking = false;

  const changed = await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    let ids: number[];
    if ("ids" in request.selection) {
      ids = request.selection.ids;
      if (ids.length > MAX_BULK_ITEMS) throw new TooManyItemsError();
      // Every item named must exist (and be of this type): otherwise nothing is done.
      const found = new Set((await tx.select({ id: t.id }).from(t).where(inArray(t.id, ids)).for("update")).map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) throw new NotFoundError(`Not found: ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""}`);
      if (request.ownedBy) {
        const own = new Set(
          (
            await tx
              .select({ id: t.id })
              .from(t)
              .where(and(inArray(t.id, ids), ownItemsSql(type, request.ownedBy)))
          ).map((r) => r.id),
        );
        if (ids.some((id) => !own.has(id))) throw notYourItem();
      }
    } else ids = await idsMatching(tx, type, { ...request.selection.filter, ownedBy: request.ownedBy });
    if (!ids.length) return [];
    breaking = request.action !== "tag" && (await anyBreaking(tx, type, ids));

    if (request.action === "delete") {
      const gone = await removeItems(tx, type, ids);
      if (gone.length) await recordAudit(tx, { actor: author, action: "bulk", type, ids: gone, details: auditDetails(request, null, null) });
      return gone;
    }

    // What the items were, for the alerts that publishing an urgent or breaking item queues (decision 0127).
    const before = ["publish", "schedule", "category"].includes(request.action) ? await alertFactsOf(tx, type, ids, now) : new Map<number, AlertBefore>();
    let changes: Record<string, unknown>;
    let differs: SQL | undefined;
    switch (request.action) {
      case "publish":
        // Published now. An item keeps an earlier publish date (an article of 26 November stays there in the
        // calendar, feeds and digest) unless the editor asked for today's; a future date becomes now; an item
        // already out keeps its date either way (issue 40, decision 0140).
        changes = {
          status: "published",
          publishDate: request.useToday ? now : sql`least(${t.publishDate}, ${now.toISOString()}::timestamptz)`,
        };
        differs = or(ne(t.status, "published"), sql`${t.publishDate} > ${now.toISOString()}::timestamptz`);
        break;
      case "unpublish":
        changes = { status: "draft" };
        differs = eq(t.status, "published");
        break;
      case "schedule":
        changes = { status: "published", publishDate: at! };
        differs = or(ne(t.status, "published"), sql`${t.publishDate} <> ${at!.toISOString()}::timestamptz`);
        break;
      case "category":
        changes = { categoryId };
        differs = sql`${columnOf(type, "categoryId")!} is distinct from ${categoryId}`;
        break;
      case "tag": {
        // Only the items that gained the tag change (an item that had it already is left alone).
        ids = await addTag(tx, type, ids, request.tag!);
        changes = {};
        break;
      }
    }
    const rows = ids.length
      ? await tx
          .update(t)
          .set({ ...changes, updatedAt: now } as never)
          .where(and(inArray(t.id, ids), differs))
          .returning({ id: t.id })
      : [];
    const done = rows.map((r) => r.id).sort((a, b) => b - a);
    const alerting: Parameters<typeof queueOnePushAlert>[2] = [];
    for (const id of done) {
      const item = await getForStaff(tx, type, id);
      if (!item) throw new NotFoundError(`Not found: ${id}`);
      await keepRevision(tx, type, item, author);
      await indexForSearch(tx, type, id);
      if (before.has(id)) alerting.push({ before: before.get(id)!, after: item });
    }
    if (request.action === "category" && !breaking) breaking = await anyBreaking(tx, type, done);
    // One alert for the whole action, not one per item (issue 39, decision 0134).
    await queueOnePushAlert(tx, type, alerting);
    // One audit row for the whole action, in its transaction (decision 0140).
    if (done.length) await recordAudit(tx, { actor: author, action: "bulk", type, ids: done, details: auditDetails(request, at, categoryId) });
    return done;
  });

  if (changed.length) afterWrite(db, type);
  if (changed.length && breaking) invalidate("live");
  return { action: request.action, count: changed.length, ids: changed };
}
