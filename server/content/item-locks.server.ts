/**
 * Who is editing an item (issue 40, decision 0139): a soft lock per item, taken when an editor opens the item's
 * form, renewed by the form's heartbeat, released when the form is left, free after ITEM_LOCK_TTL_SECONDS of
 * silence. The row in `item_locks` is the truth for every process (the database's clock decides what is
 * expired): taking and renewing are one INSERT … ON CONFLICT DO UPDATE … WHERE (free, expired or the same
 * holder), so two editors opening the item at once cannot both get it. A takeover is the same statement without
 * the WHERE: the former holder learns it at their next heartbeat (409) and their form turns read-only.
 *
 * The holder is shown as a person: `{ id, name }`, the name being their profile's full name, else their account's
 * name, else the local part of their e-mail.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { ContentType } from "#domain/content-types/index.ts";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { itemLocks, profiles, user } from "#server/db/schema.server.ts";
import { getConfig } from "#server/config.server.ts";
import { ConflictError } from "#server/http/errors.server.ts";

/** The person who holds a lock, as the API and the editor show them. */
export type LockHolder = { id: string; name: string };
/** A lock as the API answers it: `{ holder, since }` (since: ISO 8601). */
export type ItemLock = { holder: LockHolder; since: string };
/** The outcome of taking a lock: `held` true when the caller holds it now, else `lock` is the other holder's. */
export type LockTake = { held: boolean; lock: ItemLock };

/**
 * How often the editor's form renews its lock: well inside the shortest TTL (30 s), and how fast the person who lost
 * it to a takeover is told (issue 40: "at once"). A renewal is one upsert of one row, so a desk of twenty open forms
 * costs four small statements a second.
 */
export const LOCK_HEARTBEAT_SECONDS = 5;

const ttlSeconds = () => getConfig().ITEM_LOCK_TTL_SECONDS;

/** The save of an item whose lock another account holds: 409 LOCKED, with who holds it since when. */
export class ItemLockedError extends ConflictError {
  constructor(readonly lock: ItemLock) {
    super(`«${lock.holder.name}» is editing this item: take over editing before saving.`, "LOCKED");
  }
}

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** The lock of the item as it stands, the holder named, or null when there is none or it has expired. */
export async function lockOf(db: Database, type: ContentType, id: number): Promise<ItemLock | null> {
  const [row] = await db
    .select({
      holderId: itemLocks.holderId,
      since: itemLocks.since,
      name: sql<string>`coalesce(nullif(${profiles.fullName}, ''), nullif(${user.name}, ''), split_part(${user.email}, '@', 1), ${itemLocks.holderId})`,
    })
    .from(itemLocks)
    .leftJoin(user, eq(user.id, itemLocks.holderId))
    .leftJoin(profiles, eq(profiles.id, itemLocks.holderId))
    .where(and(eq(itemLocks.contentType, type), eq(itemLocks.itemId, id), sql`${itemLocks.renewedAt} > now() - make_interval(secs => ${ttlSeconds()})`))
    .limit(1);
  return row ? { holder: { id: row.holderId, name: row.name }, since: iso(row.since) } : null;
}

/**
 * Takes or renews the item's lock for `holderId` in one statement: it is theirs when it was free, expired or
 * already theirs (then `since` is kept), or with `takeover` whoever held it. Answers whether the caller holds it,
 * and the lock as it stands (the other holder's when not).
 */
export async function takeLock(db: Database, type: ContentType, id: number, holderId: string, { takeover = false } = {}, attempt = 0): Promise<LockTake> {
  const expired = sql`${itemLocks.renewedAt} <= now() - make_interval(secs => ${ttlSeconds()})`;
  const taken = await db
    .insert(itemLocks)
    .values({ contentType: type, itemId: id, holderId, since: sql`now()`, renewedAt: sql`now()` })
    .onConflictDoUpdate({
      target: [itemLocks.contentType, itemLocks.itemId],
      set: {
        holderId: sql`excluded.holder_id`,
        // A renewal keeps the time the holder started; a new holder (or one back after expiry) starts now.
        since: sql`case when ${itemLocks.holderId} = excluded.holder_id and not (${expired}) then ${itemLocks.since} else excluded.since end`,
        renewedAt: sql`excluded.renewed_at`,
      },
      setWhere: takeover ? undefined : sql`${itemLocks.holderId} = excluded.holder_id or ${expired}`,
    })
    .returning({ holderId: itemLocks.holderId });
  const lock = await lockOf(db, type, id);
  // Released by its holder between the two statements (or the clock passed the TTL): try once more.
  if (!lock && attempt < 3) return takeLock(db, type, id, holderId, { takeover }, attempt + 1);
  if (!lock) throw new ConflictError("The item's lock changed hands while it was taken: try again.", "LOCK_RACE");
  return { held: taken.length > 0 && lock.holder.id === holderId, lock };
}

/** Releases the item's lock when `holderId` holds it (a lock another took over stays theirs). Answers whether it did. */
export async function releaseLock(db: Database, type: ContentType, id: number, holderId: string): Promise<boolean> {
  const gone = await db
    .delete(itemLocks)
    .where(and(eq(itemLocks.contentType, type), eq(itemLocks.itemId, id), eq(itemLocks.holderId, holderId)))
    .returning({ holderId: itemLocks.holderId });
  return gone.length > 0;
}

/** Refuses a save by `accountId` while another account holds the item's lock (409 LOCKED with holder and since). */
export async function refuseIfLockedByOther(db: Database, type: ContentType, id: number, accountId: string): Promise<void> {
  const lock = await lockOf(db, type, id);
  if (lock && lock.holder.id !== accountId) throw new ItemLockedError(lock);
}

/** Forgets the locks of removed items, in the caller's transaction (removeItems). */
export async function forgetLocks(tx: Queryable, type: ContentType, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await tx.delete(itemLocks).where(and(eq(itemLocks.contentType, type), inArray(itemLocks.itemId, [...ids])));
}
