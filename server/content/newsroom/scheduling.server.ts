/**
 * Scheduled publishing, with no job: the public reads filter on publish_date <= now(), so a scheduled item is
 * public at its time; what hides it is the read cache. A timer invalidates the type's cached reads when the
 * next scheduled item comes due. Every write re-arms it (./write.server.ts afterWrite), and the server arms it
 * at start. One process; with several, each runs its own (they see the same database).
 */
import { and, eq, gt, min, sql } from "drizzle-orm";
import { CONTENT_TYPES, type ContentType } from "#domain/content-types/index.ts";
import type { Database } from "#server/db/client.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { invalidate } from "../cache.server.ts";
import { tableOf } from "../registry.server.ts";

let timer: ReturnType<typeof setTimeout> | undefined;
/** setTimeout holds at most ~24.8 days; a later time is re-armed when this one fires. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

/** The soonest publish time still to come, and the types that have an item due then. */
async function nextDue(db: Database): Promise<{ at: number; types: ContentType[] } | null> {
  const nexts = await Promise.all(
    CONTENT_TYPES.map(async (type) => {
      const t = tableOf(type);
      const [row] = await db
        .select({ at: min(t.publishDate) })
        .from(t)
        .where(and(eq(t.status, "published"), gt(t.publishDate, sql`now()`)));
      return { type, at: row?.at ? new Date(row.at) : null };
    }),
  );
  const due = nexts.filter((n): n is { type: ContentType; at: Date } => n.at !== null).sort((a, b) => a.at.getTime() - b.at.getTime());
  if (!due.length) return null;
  const first = due[0].at.getTime();
  return { at: first, types: due.filter((d) => d.at.getTime() === first).map((d) => d.type) };
}

/** Arms the timer for the next scheduled item (the one timer of the process: an earlier one is cleared). */
export async function armScheduledPublishing(db: Database): Promise<void> {
  try {
    const next = await nextDue(db);
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!next) return;
    timer = setTimeout(
      () => {
        invalidate(...next.types);
        void armScheduledPublishing(db);
      },
      Math.min(Math.max(next.at - Date.now() + 50, 0), LONGEST_WAIT_MS),
    );
    timer.unref();
  } catch (error) {
    logger.error({ err: error }, "could not arm scheduled publishing");
  }
}
