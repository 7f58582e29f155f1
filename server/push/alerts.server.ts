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
 * - A subscription its push service says is gone (404, 410) is deleted; one that fails PUSH_MAX_FAILURES
 *   deliveries in a row, for any reason, too (issue 39, docs/decisions/0134-outbound-requests-and-push-delivery.md).
 * - Every delivery goes through the guarded outbound agent (server/http/outbound.server.ts: public addresses on
 *   port 443 only, checked when it connects) with a total deadline (PUSH_DEADLINE_MS), PUSH_CONCURRENCY at once
 *   over a sliding window, so one slow or dead push service holds one slot for at most its deadline.
 * - At most PUSH_ALERTS_PER_HOUR alerts start in any hour; the next is held (not sent), and the editor sees it.
 *   A bulk action queues one alert, its most important item's (queueOnePushAlert).
 * - A live coverage's key event posted with `push` (issue 44) alerts too, once per entry (content_type
 *   "coverage_entry", the entry's id): its coverage's title, the entry's text, the entry's own page; under the same cap.
 */
import { and, asc, eq, gt, gte, inArray, sql, type SQL } from "drizzle-orm";
import webpush, { type RequestOptions } from "web-push";
import { CONTENT_TYPES, editorStatusOf, publicUrl, type ContentType, type EditorStatus } from "#domain/content-types/index.ts";
import { localized } from "#domain/localized.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import { localizedPath } from "#domain/addresses.ts";
import { pushAlertCampaign, taggedUrl } from "#domain/link-tags.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import type { Database, Queryable } from "#server/db/client.server.ts";
import { categories, coverageEntries, coverages, pushAlerts, pushSubscriptions } from "#server/db/schema.server.ts";
import { entryPath } from "#domain/live.ts";
import { richTextToPlainText } from "#server/content/rich-text.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { createOutboundAgent, outboundRequest, type OutboundAgent } from "#server/http/outbound.server.ts";
import { enqueue, PermanentJobError, type Job } from "#server/jobs/queue.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { columnOf, tableOf } from "#server/content/registry.server.ts";
import { pushSettings, type PushSettings } from "./subscriptions.server.ts";

export const PUSH_ALERT_JOB = "push.alert";
/** Subscriptions read at once, and deliveries finished between two saves of the alert's progress. */
export const PUSH_BATCH_SIZE = 100;
/** Deliveries in flight at once: a dead push service takes one slot until its deadline, the others keep going. */
export const PUSH_CONCURRENCY = 50;
/** The advisory lock under which an alert is counted against the hour's cap and claimed (no two pass at once). */
const PUSH_CAP_LOCK = 0x5a4a_0134;
/** How long a push service keeps an alert for a phone that is off: breaking news is stale after a few hours. */
export const PUSH_TTL_SECONDS = 6 * 3600;
/** The slug of the breaking-news category (back-office.md §3: "breaking (عاجل)"). */
export const BREAKING_CATEGORY = "breaking";

/** The fields of an item (a staff item's, or a row's) that decide whether its publication alerts. */
type AlertFacts = { urgent?: unknown; categoryId?: unknown };

/**
 * Whether an item is worth an alert: marked urgent, or in the breaking category. What the ticker of every page
 * shows too (issue 44): a save of such an item invalidates the "live" read-cache tag.
 */
export async function alertWorthy(db: Queryable, facts: AlertFacts): Promise<boolean> {
  if (facts.urgent === true) return true;
  if (facts.categoryId == null || facts.categoryId === "") return false;
  const id = Number(facts.categoryId);
  if (!Number.isSafeInteger(id)) return false;
  const [row] = await db.select({ slug: categories.slug }).from(categories).where(eq(categories.id, id)).limit(1);
  return row?.slug === BREAKING_CATEGORY;
}

/**
 * Whether any of these items is now urgent or in the breaking category (before a delete, an unpublication or a
 * change of category; after one): a bulk action over such items invalidates the ticker's "live" tag (issue 44).
 */
export async function anyBreaking(db: Queryable, type: ContentType, ids: readonly number[]): Promise<boolean> {
  if (!ids.length) return false;
  const t = tableOf(type);
  const categoryId = columnOf(type, "categoryId");
  const breaking = categoryId
    ? sql`(${t.urgent} or exists (select 1 from ${categories} where ${categories.id} = ${categoryId} and ${categories.slug} = ${BREAKING_CATEGORY}))`
    : sql`${t.urgent}`;
  const [row] = await db
    .select({ id: t.id })
    .from(t)
    .where(and(inArray(t.id, [...ids]), breaking))
    .limit(1);
  return Boolean(row);
}

type SavedItem = { id: number; status: EditorStatus; publish_date: string; urgent?: unknown; category_id?: unknown };

/** Whether this save makes an alert-worthy item public or scheduled (and it was not already out and worthy). */
async function alertDue(tx: Queryable, before: SavedItem | null, after: SavedItem, config: Config): Promise<boolean> {
  // Only a save that makes it public or scheduled: a draft or a story in review alerts nobody (decision 0138).
  if (!pushSettings(config) || (after.status !== "published" && after.status !== "scheduled")) return false;
  if (!(await alertWorthy(tx, { urgent: after.urgent, categoryId: after.category_id }))) return false;
  // Already public and alert-worthy before this save: it was alerted then (or predates alerts); never again.
  return !(before?.status === "published" && (await alertWorthy(tx, { urgent: before.urgent, categoryId: before.category_id })));
}

/**
 * Called by the newsroom's save, in its transaction, with the item before (null for a new one) and after: queues
 * the alert when this save makes an alert-worthy item public or scheduled. Nothing when alerts are off.
 */
export async function queuePushAlert(tx: Queryable, type: ContentType, before: SavedItem | null, after: SavedItem, config: Config = getConfig()) {
  if (await alertDue(tx, before, after, config)) await queueAlert(tx, type, after);
}

/**
 * A bulk action's alert (issue 39): publishing 200 breaking items rang each subscriber's phone 200 times. Of the
 * items it makes due, one alert: the item marked urgent before those only in the breaking category, then the
 * newest (publish time, then id). The others are out without an alert of their own, as items already alerted.
 */
export async function queueOnePushAlert(
  tx: Database,
  type: ContentType,
  changes: { before: SavedItem | null; after: SavedItem }[],
  config: Config = getConfig(),
) {
  let best: SavedItem | null = null;
  const rank = (item: SavedItem) => [item.urgent === true ? 1 : 0, new Date(item.publish_date).getTime(), item.id];
  for (const { before, after } of changes) {
    if (!(await alertDue(tx, before, after, config))) continue;
    if (!best) best = after;
    else {
      const [a, b] = [rank(after), rank(best)];
      const i = a.findIndex((v, n) => v !== b[n]);
      if (i >= 0 && a[i] > b[i]) best = after;
    }
  }
  if (best) await queueAlert(tx, type, best);
}

async function queueAlert(tx: Queryable, type: ContentType, after: SavedItem) {
  await tx.insert(pushAlerts).values({ contentType: type, itemId: after.id }).onConflictDoNothing();
  // Held by the hour's cap, then published again: its turn comes again (the cap is counted when the job runs).
  await tx
    .update(pushAlerts)
    .set({ state: "queued", finishedAt: null })
    .where(and(eq(pushAlerts.contentType, type), eq(pushAlerts.itemId, after.id), eq(pushAlerts.state, "held")));
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

/** Alerts that started in the last hour (sending or sent): what the cap counts. */
async function alertsInLastHour(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pushAlerts)
    .where(and(inArray(pushAlerts.state, ["sending", "sent"]), gte(pushAlerts.startedAt, sql`now() - interval '1 hour'`)));
  return Number(row?.n ?? 0);
}

/** What the editor sees of an item's alert, with the hour's cap and how many alerts went out in it: null when none was queued. */
export async function pushAlertOf(
  db: Database,
  type: ContentType | typeof ENTRY_ALERT_TYPE,
  id: number,
  config: Pick<Config, "PUSH_ALERTS_PER_HOUR"> = getConfig(),
) {
  const [row] = await db
    .select({ state: pushAlerts.state, sent: pushAlerts.sent, failed: pushAlerts.failed, removed: pushAlerts.removed, finishedAt: pushAlerts.finishedAt })
    .from(pushAlerts)
    .where(and(eq(pushAlerts.contentType, type), eq(pushAlerts.itemId, id)))
    .limit(1);
  if (!row) return null;
  const cap = { perHour: config.PUSH_ALERTS_PER_HOUR, lastHour: await alertsInLastHour(db) };
  return { state: row.state, sent: row.sent, failed: row.failed, removed: row.removed, finishedAt: row.finishedAt?.toISOString() ?? null, cap };
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
  /** The guarded agent of the requests to push services (tests make one that trusts their own push service). */
  agent?: OutboundAgent;
  batchSize?: number;
  concurrency?: number;
  /** Each delivery's total deadline (PUSH_DEADLINE_MS). */
  deadlineMs?: number;
  /** Deliveries failed in a row after which a subscription is removed (PUSH_MAX_FAILURES). */
  maxFailures?: number;
  /** Alerts that may start in any hour (PUSH_ALERTS_PER_HOUR). */
  perHour?: number;
};

export type SendOutcome = { state: "sent" | "skipped" | "held"; sent: number; failed: number; removed: number };

let sharedAgent: OutboundAgent | null = null;
/** Production's agent to push services: public addresses on port 443, nothing else (decision 0134). */
function pushAgent(): OutboundAgent {
  sharedAgent ??= createOutboundAgent({ ports: [443] });
  return sharedAgent;
}

/** The job: sends an item's alert to every subscriber, resuming where a crashed attempt stopped. */
export async function sendPushAlert(db: Database, job: Pick<Job, "id" | "payload">, options: SendOptions): Promise<SendOutcome> {
  if (job.payload.type === ENTRY_ALERT_TYPE) return sendEntryAlert(db, job, options);
  const type = job.payload.type as ContentType;
  const id = Number(job.payload.id);
  if (!CONTENT_TYPES.includes(type) || !Number.isSafeInteger(id)) throw new PermanentJobError("push alert job without a content type and id");
  const skipped: SendOutcome = { state: "skipped", sent: 0, failed: 0, removed: 0 };
  const whereAlert = and(eq(pushAlerts.contentType, type), eq(pushAlerts.itemId, id)) as SQL;

  const item = await readAlertItem(db, type, id);
  const status = item ? editorStatusOf(item.status, item.publishDate) : "draft";
  // Moved to a later time: the job queued for that time sends it.
  if (status === "scheduled") return skipped;
  if (!item || status !== "published" || !(await alertWorthy(db, item as AlertFacts))) {
    // Unpublished, deleted, or no longer urgent before its alert left: forgotten, so a new publication alerts.
    await db.delete(pushAlerts).where(and(whereAlert, eq(pushAlerts.state, "queued")));
    return skipped;
  }

  const perHour = options.perHour ?? getConfig().PUSH_ALERTS_PER_HOUR;
  const claimed = await claimAlert(db, whereAlert, job.id, perHour);
  if (claimed === "held") {
    logger.warn({ type, id, perHour }, "push alert held: the hour's cap of alerts is reached");
    return { ...skipped, state: "held" };
  }
  if (!claimed) return skipped;

  const payloads = alertPayloads(type, id, item, options);
  const totals = await deliverToAll(db, { whereAlert, jobId: job.id, claimed, payloads, options });
  await db
    .update(pushAlerts)
    .set({ state: "sent", finishedAt: new Date() })
    .where(and(whereAlert, eq(pushAlerts.jobId, job.id)));
  logger.info({ type, id, ...totals }, "push alert sent");
  return { state: "sent", ...totals };
}

// ---- A live coverage's key event (issue 44) ----

/** push_alerts' content_type of a live coverage's entry (its item_id the entry's id). */
export const ENTRY_ALERT_TYPE = "coverage_entry";
/** The entry's text in the notification, at most this many characters (a phone shows two or three lines). */
const ENTRY_ALERT_TEXT = 180;

/**
 * Called by server/content/live/entries.server.ts, in the transaction posting (or marking) a key event with
 * `push`: queues its alert, once per entry. Nothing when alerts are off, or when it was queued or sent before.
 */
export async function queueEntryPushAlert(tx: Queryable, entryId: number, config: Config = getConfig()): Promise<void> {
  if (!pushSettings(config)) return;
  const [row] = await tx
    .insert(pushAlerts)
    .values({ contentType: ENTRY_ALERT_TYPE, itemId: entryId })
    .onConflictDoNothing()
    .returning({ state: pushAlerts.state });
  if (!row) return;
  await enqueue(
    tx,
    PUSH_ALERT_JOB,
    { type: ENTRY_ALERT_TYPE, id: entryId },
    { singletonKey: `${PUSH_ALERT_JOB}:${ENTRY_ALERT_TYPE}:${entryId}`, maxAttempts: 5 },
  );
}

/** What the alert needs of the entry: its text and page, its coverage's titles; null when deleted or no longer a key event. */
async function readAlertEntry(db: Database, id: number) {
  const [row] = await db
    .select({
      body: coverageEntries.body,
      keyEvent: coverageEntries.keyEvent,
      deletedAt: coverageEntries.deletedAt,
      title: coverages.title,
      titleFr: coverages.titleFr,
      pageSlug: coverages.pageSlug,
      status: coverages.status,
      publishDate: coverages.publishDate,
    })
    .from(coverageEntries)
    .innerJoin(coverages, eq(coverages.id, coverageEntries.coverageId))
    .where(eq(coverageEntries.id, id))
    .limit(1);
  if (!row || row.deletedAt !== null || !row.keyEvent) return null;
  const text = richTextToPlainText(row.body).replace(/\s+/g, " ").trim();
  return {
    ...row,
    text: [...text].length > ENTRY_ALERT_TEXT ? `${[...text].slice(0, ENTRY_ALERT_TEXT - 1).join("")}…` : text,
    path: entryPath(publicUrl("coverage", row.pageSlug), id),
    published: editorStatusOf(row.status, row.publishDate) === "published",
  };
}

/** The job of an entry's alert: the coverage's title in each language, the entry's text, the entry's page. */
async function sendEntryAlert(db: Database, job: Pick<Job, "id" | "payload">, options: SendOptions): Promise<SendOutcome> {
  const id = Number(job.payload.id);
  if (!Number.isSafeInteger(id)) throw new PermanentJobError("push alert job of an entry without an id");
  const skipped: SendOutcome = { state: "skipped", sent: 0, failed: 0, removed: 0 };
  const whereAlert = and(eq(pushAlerts.contentType, ENTRY_ALERT_TYPE), eq(pushAlerts.itemId, id)) as SQL;
  const entry = await readAlertEntry(db, id);
  if (!entry || !entry.published) {
    // Deleted, no longer a key event, or its coverage withdrawn before the alert left: nothing to announce.
    await db.delete(pushAlerts).where(and(whereAlert, eq(pushAlerts.state, "queued")));
    return skipped;
  }
  const perHour = options.perHour ?? getConfig().PUSH_ALERTS_PER_HOUR;
  const claimed = await claimAlert(db, whereAlert, job.id, perHour);
  if (claimed === "held") {
    logger.warn({ type: ENTRY_ALERT_TYPE, id, perHour }, "push alert held: the hour's cap of alerts is reached");
    return { ...skipped, state: "held" };
  }
  if (!claimed) return skipped;
  const origin = options.publicUrl.replace(/\/+$/, "");
  const payloads = new Map<Language, string>(
    LANGUAGES.map((lang) => {
      const message: PushMessage = {
        lang,
        title: localized(lang, entry.title, entry.titleFr),
        body: entry.text || `${translate(lang, "push.kicker")} · ${lang === "ar" ? options.siteName.ar : options.siteName.fr}`,
        url: alertLink(`${origin}${localizedPath(lang, entry.path)}`, ENTRY_ALERT_TYPE, id),
        tag: `${ENTRY_ALERT_TYPE}-${id}`,
      };
      return [lang, JSON.stringify(message)];
    }),
  );
  const totals = await deliverToAll(db, { whereAlert, jobId: job.id, claimed, payloads, options });
  await db
    .update(pushAlerts)
    .set({ state: "sent", finishedAt: new Date() })
    .where(and(whereAlert, eq(pushAlerts.jobId, job.id)));
  logger.info({ type: ENTRY_ALERT_TYPE, id, ...totals }, "push alert sent");
  return { state: "sent", ...totals };
}

/**
 * The address a tap on the alert opens, tagged as this alert's (`utm_source=push&utm_campaign=alert-<type>-<id>`, the
 * alert's key): the dashboard counts the alert's opens by it (issue 45, domain/link-tags.ts).
 */
const alertLink = (url: string, type: string, id: number) => taggedUrl(url, { source: "push", campaign: pushAlertCampaign(type, id) });

/** What the alert needs of its item: its title, address, state and what makes it alert-worthy. */
async function readAlertItem(db: Database, type: ContentType, id: number) {
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
  return item ?? null;
}

type AlertItem = NonNullable<Awaited<ReturnType<typeof readAlertItem>>>;
type Progress = { cursor: number; sent: number; failed: number; removed: number };

/**
 * Counts the hour's alerts and takes this one, as one step under a lock: two jobs at once cannot both pass the
 * cap. "held" when the cap is reached, the alert's progress when this job has it, null when another job does.
 */
async function claimAlert(db: Database, whereAlert: SQL, jobId: number, perHour: number): Promise<"held" | Progress | null> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    await tx.execute(sql`select pg_advisory_xact_lock(${PUSH_CAP_LOCK})`);
    const [current] = await tx.select({ state: pushAlerts.state }).from(pushAlerts).where(whereAlert);
    // A queued alert is counted against the cap when it would start; one already sending was counted then.
    if (current?.state === "queued" && (await alertsInLastHour(tx)) >= perHour) {
      await tx
        .update(pushAlerts)
        .set({ state: "held", finishedAt: new Date() })
        .where(and(whereAlert, eq(pushAlerts.state, "queued")));
      return "held" as const;
    }
    // This job takes the alert: a queued one, its own after a crash, or one whose job is no longer queued or running.
    const [row] = await tx
      .update(pushAlerts)
      .set({ state: "sending", jobId, startedAt: sql`coalesce(${pushAlerts.startedAt}, now())` })
      .where(
        and(
          whereAlert,
          sql`(${pushAlerts.state} = 'queued' or (${pushAlerts.state} = 'sending' and (${pushAlerts.jobId} = ${jobId}
            or not exists (select 1 from jobs where jobs.id = ${pushAlerts.jobId} and jobs.state in ('queued', 'running')))))`,
        ),
      )
      .returning({ cursor: pushAlerts.cursor, sent: pushAlerts.sent, failed: pushAlerts.failed, removed: pushAlerts.removed });
    return row ?? null;
  });
}

/**
 * The notification in each language, written once for every subscriber: its title in that language where written,
 * and the item's address in that language (issue 42), so a tap opens the page the subscriber reads.
 */
function alertPayloads(type: ContentType, id: number, item: AlertItem, options: SendOptions): Map<Language, string> {
  const path = publicUrl(type, item.pageSlug, id);
  const origin = options.publicUrl.replace(/\/+$/, "");
  return new Map<Language, string>(
    LANGUAGES.map((lang) => {
      const message: PushMessage = {
        lang,
        title: localized(lang, item.title, (item as { titleFr?: string | null }).titleFr ?? null),
        body: `${translate(lang, "push.kicker")} · ${lang === "ar" ? options.siteName.ar : options.siteName.fr}`,
        url: alertLink(`${origin}${localizedPath(lang, path)}`, type, id),
        tag: `${type}-${id}`,
      };
      return [lang, JSON.stringify(message)];
    }),
  );
}

type Subscription = { id: number; endpoint: string; p256dh: string; auth: string; language: string };
type Outcome = "sent" | "gone" | "failed";
type Delivery = {
  payloads: Map<Language, string>;
  details: RequestOptions;
  agent: OutboundAgent;
  deadlineMs: number;
};

/** One delivery, settled within its deadline whatever the push service does. */
async function deliver(sub: Subscription, { payloads, details, agent, deadlineMs }: Delivery): Promise<Outcome> {
  const lang = (LANGUAGES as readonly string[]).includes(sub.language) ? (sub.language as Language) : "ar";
  try {
    const request = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payloads.get(lang)!, details);
    const answer = await outboundRequest(request.endpoint, { agent, method: request.method, headers: request.headers, body: request.body, deadlineMs });
    if (answer.status >= 200 && answer.status < 300) return "sent";
    if (answer.status === 404 || answer.status === 410) return "gone";
    // The endpoint is a capability: only its host is logged.
    logger.warn({ host: hostOf(sub.endpoint), status: answer.status }, "push alert not delivered");
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    logger.warn({ host: hostOf(sub.endpoint), code: code ?? null, reason: message }, "push alert not delivered");
  }
  return "failed";
}

/** What finished deliveries mean for their subscriptions: a success clears the failure count, gone or failing too often removes. */
async function settleSubscriptions(db: Database, done: { id: number; outcome: Outcome }[], maxFailures: number) {
  const ids = (o: Outcome) => done.filter((d) => d.outcome === o).map((d) => d.id);
  const [sent, gone, failed] = [ids("sent"), ids("gone"), ids("failed")];
  const removed = [...gone];
  if (sent.length)
    await db
      .update(pushSubscriptions)
      .set({ failures: 0 })
      .where(and(inArray(pushSubscriptions.id, sent), gt(pushSubscriptions.failures, 0)));
  if (failed.length) {
    const counted = await db
      .update(pushSubscriptions)
      .set({ failures: sql`${pushSubscriptions.failures} + 1` })
      .where(inArray(pushSubscriptions.id, failed))
      .returning({ id: pushSubscriptions.id, failures: pushSubscriptions.failures });
    const dead = counted.filter((c) => c.failures >= maxFailures).map((c) => c.id);
    if (dead.length) logger.info({ count: dead.length, maxFailures }, "push subscriptions removed after failing in a row");
    removed.push(...dead);
  }
  if (removed.length) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, removed));
  return { sent: sent.length, failed: failed.length, removed: removed.length };
}

/**
 * Delivers to every subscription after the claimed cursor, by id, PUSH_CONCURRENCY at once over a sliding
 * window; after each batch the alert's row keeps the cursor and the counts. Returns the totals.
 */
async function deliverToAll(
  db: Database,
  {
    whereAlert,
    jobId,
    claimed,
    payloads,
    options,
  }: { whereAlert: SQL; jobId: number; claimed: Progress; payloads: Map<Language, string>; options: SendOptions },
) {
  const delivery: Delivery = {
    payloads,
    details: { vapidDetails: options.settings, TTL: PUSH_TTL_SECONDS, urgency: "high" as const, contentEncoding: "aes128gcm" as const },
    agent: options.agent ?? pushAgent(),
    deadlineMs: options.deadlineMs ?? getConfig().PUSH_DEADLINE_MS,
  };
  const maxFailures = options.maxFailures ?? getConfig().PUSH_MAX_FAILURES;
  const batchSize = options.batchSize ?? PUSH_BATCH_SIZE;
  const concurrency = options.concurrency ?? PUSH_CONCURRENCY;

  let cursor = claimed.cursor;
  const totals = { sent: claimed.sent, failed: claimed.failed, removed: claimed.removed };
  const inFlight = new Map<number, Promise<void>>();
  let finished: { id: number; outcome: Outcome }[] = [];
  let lastStarted = cursor;
  /** Saves what finished: removals, failure counts, and the cursor below which every delivery is done. */
  const flush = async () => {
    const done = finished;
    finished = [];
    // Deliveries start in id order: everything below the lowest one still in flight is done (and in `done`).
    cursor = inFlight.size ? Math.min(...inFlight.keys()) - 1 : lastStarted;
    const settled = await settleSubscriptions(db, done, maxFailures);
    totals.sent += settled.sent;
    totals.failed += settled.failed;
    totals.removed += settled.removed;
    await db
      .update(pushAlerts)
      .set({ cursor, sent: totals.sent, failed: totals.failed, removed: totals.removed })
      .where(and(whereAlert, eq(pushAlerts.jobId, jobId)));
  };

  for (let after = cursor; ;) {
    const page = await db
      .select({
        id: pushSubscriptions.id,
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
        language: pushSubscriptions.language,
      })
      .from(pushSubscriptions)
      .where(gt(pushSubscriptions.id, after))
      .orderBy(asc(pushSubscriptions.id))
      .limit(batchSize);
    if (!page.length) break;
    after = page[page.length - 1].id;
    for (const sub of page) {
      // A sliding window, not batches in lock-step: a slow delivery holds its own slot, never the next batch.
      while (inFlight.size >= concurrency) await Promise.race(inFlight.values());
      if (finished.length >= batchSize) await flush();
      lastStarted = sub.id;
      inFlight.set(
        sub.id,
        deliver(sub, delivery).then((outcome) => {
          finished.push({ id: sub.id, outcome });
          inFlight.delete(sub.id);
        }),
      );
    }
  }
  await Promise.all(inFlight.values());
  await flush();
  return totals;
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return "?";
  }
}

/** The job's handler for server/jobs/index.server.ts: nothing to do when alerts were turned off since. */
export function pushAlertHandler(given?: Config, extra: Pick<SendOptions, "agent" | "batchSize" | "concurrency" | "deadlineMs"> = {}) {
  return async (job: Job, { db }: { db: Database }) => {
    const config = given ?? getConfig();
    const settings = pushSettings(config);
    if (!settings) {
      logger.warn({ job: job.id }, "push alert dropped: VAPID keys are no longer set");
      return;
    }
    await sendPushAlert(db, job, {
      settings,
      publicUrl: config.publicUrl,
      siteName: { ar: config.SITE_NAME, fr: config.SITE_NAME_FR },
      deadlineMs: config.PUSH_DEADLINE_MS,
      maxFailures: config.PUSH_MAX_FAILURES,
      perHour: config.PUSH_ALERTS_PER_HOUR,
      ...extra,
    });
  };
}
