/**
 * Breaking-news alerts (issue 32, docs/decisions/0127-breaking-news-alerts.md). Publishing an item of the breaking
 * category («عاجل»), or any item marked urgent, queues one job (PUSH_ALERT_JOB) that sends its title and address
 * to every push subscriber, each in the subscriber's language, through the Web Push protocol (VAPID, aes128gcm,
 * the `web-push` library).
 *
 * - Once per item: the alert is a row keyed by the item (push_alerts); a later save, a re-publication or a second
 *   job finds it taken and sends nothing. Only a save that makes the item alert-worthy and public (or scheduled)
 *   queues it: re-saving an item that was already public and urgent does not.
 * - A scheduled item's job runs at its publish time; if the time moved, the job for the new time sends.
 * - In batches of PUSH_BATCH_SIZE subscriptions, by id: after each batch the row keeps the last id and the counts,
 *   so a crashed worker's job, taken again, resumes after the last finished batch (at most one batch repeats).
 * - A subscription its push service says is gone (404, 410) is deleted; other failures are counted, not retried.
 */
import type { Agent } from "node:https";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import webpush from "web-push";
import { CONTENT_TYPES, editorStatusOf, publicUrl, type ContentType, type EditorStatus } from "#domain/content-types/index.ts";
import { localized } from "#domain/localized.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { categories, pushAlerts, pushSubscriptions } from "#server/db/schema.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { enqueue, PermanentJobError, type Job } from "#server/jobs/queue.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { columnOf, tableOf } from "#server/content/registry.server.ts";
import { pushSettings, type PushSettings } from "./subscriptions.server.ts";

export const PUSH_ALERT_JOB = "push.alert";
/** Subscriptions sent to at once, and between two saves of the alert's progress. */
export const PUSH_BATCH_SIZE = 100;
/** How long a push service keeps an alert for a phone that is off: breaking news is stale after a few hours. */
export const PUSH_TTL_SECONDS = 6 * 3600;
/** The slug of the breaking-news category (back-office.md §3: "breaking (عاجل)"). */
export const BREAKING_CATEGORY = "breaking";

/** The fields of an item (a staff item's, or a row's) that decide whether its publication alerts. */
type AlertFacts = { urgent?: unknown; categoryId?: unknown };

/** Whether an item is worth an alert: marked urgent, or in the breaking category. */
async function alertWorthy(db: Database, facts: AlertFacts): Promise<boolean> {
  if (facts.urgent === true) return true;
  if (facts.categoryId == null || facts.categoryId === "") return false;
  const id = Number(facts.categoryId);
  if (!Number.isSafeInteger(id)) return false;
  const [row] = await db.select({ slug: categories.slug }).from(categories).where(eq(categories.id, id)).limit(1);
  return row?.slug === BREAKING_CATEGORY;
}

type SavedItem = { id: number; status: EditorStatus; publish_date: string; urgent?: unknown; category_id?: unknown };

/**
 * Called by the newsroom's save, in its transaction, with the item before (null for a new one) and after: queues
 * the alert when this save makes an alert-worthy item public or scheduled. Nothing when alerts are off.
 */
export async function queuePushAlert(tx: Database, type: ContentType, before: SavedItem | null, after: SavedItem, config: Config = getConfig()) {
  if (!pushSettings(config) || after.status === "draft") return;
  if (!(await alertWorthy(tx, { urgent: after.urgent, categoryId: after.category_id }))) return;
  // Already public and alert-worthy before this save: it was alerted then (or predates alerts); never again.
  if (before?.status === "published" && (await alertWorthy(tx, { urgent: before.urgent, categoryId: before.category_id }))) return;
  await tx.insert(pushAlerts).values({ contentType: type, itemId: after.id }).onConflictDoNothing();
  const [alert] = await tx
    .select({ state: pushAlerts.state })
    .from(pushAlerts)
    .where(and(eq(pushAlerts.contentType, type), eq(pushAlerts.itemId, after.id)));
  // Sent: never again. Sending: the new job takes over only if the one sending is no longer queued or running.
  if (!alert || alert.state === "sent") return;
  const at = new Date(after.publish_date);
  const now = new Date();
  await enqueue(
    tx,
    PUSH_ALERT_JOB,
    { type, id: after.id },
    { singletonKey: `${PUSH_ALERT_JOB}:${type}:${after.id}@${at.getTime()}`, runAt: at > now ? at : now, maxAttempts: 5 },
  );
}

/** What the editor sees of an item's alert: null when none was queued. */
export async function pushAlertOf(db: Database, type: ContentType, id: number) {
  const [row] = await db
    .select({ state: pushAlerts.state, sent: pushAlerts.sent, failed: pushAlerts.failed, removed: pushAlerts.removed, finishedAt: pushAlerts.finishedAt })
    .from(pushAlerts)
    .where(and(eq(pushAlerts.contentType, type), eq(pushAlerts.itemId, id)))
    .limit(1);
  return row ? { state: row.state, sent: row.sent, failed: row.failed, removed: row.removed, finishedAt: row.finishedAt?.toISOString() ?? null } : null;
}
export type PushAlertView = NonNullable<Awaited<ReturnType<typeof pushAlertOf>>>;

/** The notification a subscriber receives: what public/push-sw.js shows and opens. */
export type PushMessage = { lang: Language; title: string; body: string; url: string; tag: string };

export type SendOptions = {
  settings: PushSettings;
  /** The site's address, before the item's path. */
  publicUrl: string;
  /** The site's name under the title: Arabic, and French for the other languages. */
  siteName: { ar: string; fr: string };
  /** The HTTPS agent of the requests to push services (tests trust their own push service's certificate). */
  agent?: Agent;
  batchSize?: number;
};

export type SendOutcome = { state: "sent" | "skipped"; sent: number; failed: number; removed: number };

/** The job: sends an item's alert to every subscriber, resuming where a crashed attempt stopped. */
export async function sendPushAlert(db: Database, job: Pick<Job, "id" | "payload">, options: SendOptions): Promise<SendOutcome> {
  const type = job.payload.type as ContentType;
  const id = Number(job.payload.id);
  if (!CONTENT_TYPES.includes(type) || !Number.isSafeInteger(id)) throw new PermanentJobError("push alert job without a content type and id");
  const skipped: SendOutcome = { state: "skipped", sent: 0, failed: 0, removed: 0 };
  const whereAlert = and(eq(pushAlerts.contentType, type), eq(pushAlerts.itemId, id));

  const t = tableOf(type);
  const titleFr = columnOf(type, "titleFr");
  const categoryId = columnOf(type, "categoryId");
  const [item] = await db
    .select({
      title: t.title,
      pageSlug: t.pageSlug,
      status: t.status,
      publishDate: t.publishDate,
      urgent: t.urgent,
      ...(titleFr ? { titleFr } : {}),
      ...(categoryId ? { categoryId } : {}),
    })
    .from(t)
    .where(eq(t.id, id))
    .limit(1);
  const status = item ? editorStatusOf(item.status, item.publishDate) : "draft";
  // Moved to a later time: the job queued for that time sends it.
  if (status === "scheduled") return skipped;
  if (!item || status === "draft" || !(await alertWorthy(db, item as AlertFacts))) {
    // Unpublished, deleted, or no longer urgent before its alert left: forgotten, so a new publication alerts.
    await db.delete(pushAlerts).where(and(whereAlert, eq(pushAlerts.state, "queued")));
    return skipped;
  }

  // This job takes the alert: a queued one, its own after a crash, or one whose job is no longer queued or running.
  const [claimed] = await db
    .update(pushAlerts)
    .set({ state: "sending", jobId: job.id, startedAt: sql`coalesce(${pushAlerts.startedAt}, now())` })
    .where(
      and(
        whereAlert,
        sql`(${pushAlerts.state} = 'queued' or (${pushAlerts.state} = 'sending' and (${pushAlerts.jobId} = ${job.id}
          or not exists (select 1 from jobs where jobs.id = ${pushAlerts.jobId} and jobs.state in ('queued', 'running')))))`,
      ),
    )
    .returning({ cursor: pushAlerts.cursor, sent: pushAlerts.sent, failed: pushAlerts.failed, removed: pushAlerts.removed });
  if (!claimed) return skipped;

  const path = publicUrl(type, item.pageSlug, id);
  const url = `${options.publicUrl.replace(/\/+$/, "")}${path}`;
  const payloads = new Map<Language, string>(
    LANGUAGES.map((lang) => {
      const message: PushMessage = {
        lang,
        title: localized(lang, item.title, (item as { titleFr?: string | null }).titleFr ?? null),
        body: `${translate(lang, "push.kicker")} · ${lang === "ar" ? options.siteName.ar : options.siteName.fr}`,
        url,
        tag: `${type}-${id}`,
      };
      return [lang, JSON.stringify(message)];
    }),
  );
  const request = {
    vapidDetails: options.settings,
    TTL: PUSH_TTL_SECONDS,
    urgency: "high" as const,
    contentEncoding: "aes128gcm" as const,
    timeout: 10_000,
    ...(options.agent ? { agent: options.agent } : {}),
  };

  let { cursor } = claimed;
  const totals = { sent: claimed.sent, failed: claimed.failed, removed: claimed.removed };
  const batchSize = options.batchSize ?? PUSH_BATCH_SIZE;
  for (;;) {
    const batch = await db
      .select({
        id: pushSubscriptions.id,
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
        language: pushSubscriptions.language,
      })
      .from(pushSubscriptions)
      .where(gt(pushSubscriptions.id, cursor))
      .orderBy(asc(pushSubscriptions.id))
      .limit(batchSize);
    if (!batch.length) break;
    const outcomes = await Promise.all(
      batch.map(async (sub) => {
        const lang = (LANGUAGES as readonly string[]).includes(sub.language) ? (sub.language as Language) : "ar";
        try {
          await webpush.sendNotification({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payloads.get(lang)!, request);
          return "sent" as const;
        } catch (error) {
          const status = (error as { statusCode?: number }).statusCode;
          if (status === 404 || status === 410) return sub.id;
          // The endpoint is a capability: only its host is logged.
          logger.warn({ host: hostOf(sub.endpoint), status: status ?? null, err: status ? undefined : error }, "push alert not delivered");
          return "failed" as const;
        }
      }),
    );
    const expired = outcomes.filter((o): o is number => typeof o === "number");
    const sent = outcomes.filter((o) => o === "sent").length;
    const failed = outcomes.filter((o) => o === "failed").length;
    if (expired.length) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, expired));
    cursor = batch[batch.length - 1].id;
    totals.sent += sent;
    totals.failed += failed;
    totals.removed += expired.length;
    await db
      .update(pushAlerts)
      .set({ cursor, sent: totals.sent, failed: totals.failed, removed: totals.removed })
      .where(and(whereAlert, eq(pushAlerts.jobId, job.id)));
  }
  await db
    .update(pushAlerts)
    .set({ state: "sent", finishedAt: new Date() })
    .where(and(whereAlert, eq(pushAlerts.jobId, job.id)));
  logger.info({ type, id, ...totals }, "push alert sent");
  return { state: "sent", ...totals };
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return "?";
  }
}

/** The job's handler for server/jobs/index.server.ts: nothing to do when alerts were turned off since. */
export function pushAlertHandler(given?: Config, extra: Pick<SendOptions, "agent" | "batchSize"> = {}) {
  return async (job: Job, { db }: { db: Database }) => {
    const config = given ?? getConfig();
    const settings = pushSettings(config);
    if (!settings) {
      logger.warn({ job: job.id }, "push alert dropped: VAPID keys are no longer set");
      return;
    }
    await sendPushAlert(db, job, { settings, publicUrl: config.publicUrl, siteName: { ar: config.SITE_NAME, fr: config.SITE_NAME_FR }, ...extra });
  };
}
