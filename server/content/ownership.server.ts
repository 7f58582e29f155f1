/**
 * Ownership of items and author profiles (issue 40, decision 0137): the facts the rule of
 * server/auth/permissions.server.ts (mayEditItem, mayEditAuthorProfile) is applied to. Without `content.others` an
 * account edits — saves, autosaves, previews, restores, deletes — only the items it created (the item's
 * `author_id`) or is credited on (item_authors → an author profile linked to the account, decision 0121), and only
 * its own author profile. Lists still show everybody's items, read-only.
 */
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { data } from "react-router";
import type { ContentType } from "#domain/content-types/index.ts";
import type { Database } from "#server/db/client.server.ts";
import { authors, itemAuthors } from "#server/db/schema.server.ts";
import { arabic, ForbiddenError } from "#server/http/errors.server.ts";
import { canEditOthers, mayEditAuthorProfile, mayEditItem, type AccessProfile } from "#server/auth/permissions.server.ts";
import { tableOf } from "./registry.server.ts";

export type Actor = { id: string; profile: AccessProfile };

const actorOf = (actor: Actor) => ({ id: actor.id, ...actor.profile });

/** 403 NOT_YOUR_ITEM: the account may write, but not this item. */
export const notYourItem = () => new ForbiddenError(arabic("rights.notYours"), "NOT_YOUR_ITEM");

/** 403 NOT_YOUR_PROFILE: another person's author profile. */
export const notYourProfile = () => new ForbiddenError(arabic("rights.notYourProfile"), "NOT_YOUR_PROFILE");

/** Items of `type` the account created or is credited on, as a condition on the type's table. */
export function ownItemsSql(type: ContentType, userId: string): SQL {
  const t = tableOf(type);
  return or(
    eq(t.authorId, userId),
    sql`exists (select 1 from ${itemAuthors} join ${authors} on ${authors.id} = ${itemAuthors.authorId} where ${itemAuthors.contentType} = ${type} and ${itemAuthors.itemId} = ${t.id} and ${authors.userId} = ${userId})`,
  )!;
}

/** Who created the item and which accounts its credited authors are linked to; null when there is no such item. */
export async function itemOwnership(db: Database, type: ContentType, id: number): Promise<{ createdBy: string | null; creditedAccounts: string[] } | null> {
  const t = tableOf(type);
  const [row] = await db.select({ createdBy: t.authorId }).from(t).where(eq(t.id, id)).limit(1);
  if (!row) return null;
  const credited = await db
    .select({ userId: authors.userId })
    .from(itemAuthors)
    .innerJoin(authors, eq(authors.id, itemAuthors.authorId))
    .where(and(eq(itemAuthors.contentType, type), eq(itemAuthors.itemId, id)));
  return { createdBy: row.createdBy, creditedAccounts: credited.map((c) => c.userId).filter((u): u is string => Boolean(u)) };
}

/** May the account edit this item? False for an item that does not exist (the caller answers its 404 first). */
export async function mayEdit(db: Database, actor: Actor, type: ContentType, id: number): Promise<boolean> {
  if (canEditOthers(actor.profile)) return mayEditItem(actorOf(actor), { createdBy: null, creditedAccounts: [] });
  const facts = await itemOwnership(db, type, id);
  return facts !== null && mayEditItem(actorOf(actor), facts);
}

/**
 * Throws 403 unless the account may edit the item (an item that does not exist passes: its 404 follows): for an
 * API NOT_YOUR_ITEM, for a back-office page or form the guard's screen with the reason `not-yours`.
 */
export async function assertMayEdit(db: Database, actor: Actor, type: ContentType, id: number, mode: "api" | "page" = "api"): Promise<void> {
  if (canEditOthers(actor.profile)) return;
  const facts = await itemOwnership(db, type, id);
  if (facts && !mayEditItem(actorOf(actor), facts)) {
    if (mode === "page") throw data({ reason: "not-yours" }, { status: 403, statusText: "Forbidden" });
    throw notYourItem();
  }
}

/** Of `ids`, those the account may not edit (for the bulk actions: all or nothing). */
export async function othersAmong(db: Database, actor: Actor, type: ContentType, ids: readonly number[]): Promise<number[]> {
  if (!ids.length || canEditOthers(actor.profile)) return [];
  const t = tableOf(type);
  const own = new Set(
    (
      await db
        .select({ id: t.id })
        .from(t)
        .where(and(inArray(t.id, [...ids]), ownItemsSql(type, actor.id)))
    ).map((r) => r.id),
  );
  return ids.filter((id) => !own.has(id));
}

/**
 * Throws 403 unless the account may edit the author profile `id` (one that does not exist passes: its 404 follows):
 * for an API NOT_YOUR_PROFILE, for a back-office page the guard's screen with the reason `not-yours`.
 */
export async function assertMayEditAuthor(db: Database, actor: Actor, id: number, mode: "api" | "page" = "api"): Promise<void> {
  if (canEditOthers(actor.profile)) return;
  const [row] = await db.select({ userId: authors.userId }).from(authors).where(eq(authors.id, id)).limit(1);
  if (row && !mayEditAuthorProfile(actorOf(actor), row)) {
    if (mode === "page") throw data({ reason: "not-yours" }, { status: 403, statusText: "Forbidden" });
    throw notYourProfile();
  }
}
