/**
 * The newsletter that sends (issue 32, decision 0126): digests and one-off item sends to the confirmed
 * subscribers of one language, through the job queue, in batches at a set rate, resumable after a crash.
 *
 * - A send is a row of newsletter_sends holding what goes out (subject, intro, the items as they were when it
 *   was queued) and one newsletter_deliveries row per recipient, written in the same transaction.
 * - The job (JOB.newsletterSend, server/jobs/index.server.ts) claims a batch of pending deliveries (state
 *   `sending`), mails them, and marks each `sent` or `failed` (or `pending` again for a passing failure). A
 *   worker killed mid-batch leaves that one batch `sending`; the next attempt hands it back to `pending`, so
 *   a crash repeats at most the messages of one batch, and never skips one.
 * - Every mail carries one-click unsubscribe (RFC 8058: List-Unsubscribe and List-Unsubscribe-Post) and a
 *   preferences link. Their token is per subscriber: an HMAC of the subscriber's id under a key derived from
 *   the server's secret, so no token is stored; the row keeps its SHA-256 to find the subscriber by.
 */
import crypto from "node:crypto";
import escapeHtml from "escape-html";
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { contentViews, newsletterDeliveries, newsletterSends, newsletterSubscribers } from "#server/db/schema.server.ts";
import { rowsOf } from "#server/db/rows.server.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import { sendMail, type MailMessage } from "#server/ops/mail.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { authSecret } from "#server/ops/secrets.server.ts";
import { translate } from "#server/http/i18n.server.ts";
import { BadRequestError, NotFoundError } from "#server/http/errors.server.ts";
import { ALL_CONTENT_TYPES, definitionOf, publicUrl, type ContentType } from "#domain/content-types/index.ts";
import { formatDate } from "#domain/format.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import { NEWSLETTER_LIMITS, type DigestPeriod, type NewsletterFrequency, type NewsletterItemRef, type NewsletterSendKind } from "#domain/newsletter-sends.ts";
import { isPublished } from "./published.server.ts";
import { columnOf, tableOf } from "./registry.server.ts";
import { recordAudit } from "./audit.server.ts";

// ---- Tokens -------------------------------------------------------------------------------------------

let derived: { secret: string; key: Buffer } | undefined;

function tokenKey(config: Config): Buffer {
  const secret = authSecret(config);
  if (!derived || derived.secret !== secret) {
    derived = { secret, key: crypto.createHmac("sha256", secret).update("sahara-media/newsletter-manage/v1").digest() };
  }
  return derived.key;
}

/** The subscriber's unsubscribe and preferences token (43 characters of base64url). */
export function manageToken(subscriberId: number, config: Config = getConfig()): string {
  return crypto.createHmac("sha256", tokenKey(config)).update(`subscriber:${subscriberId}`).digest("base64url");
}

export const hashManageToken = (token: string) => crypto.createHash("sha256").update(token, "utf8").digest("hex");

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Stores the hash of each subscriber's token where it is missing or stale (the server's secret changed): one statement. */
async function storeTokenHashes(db: Database, subscribers: { id: number; manageTokenHash: string | null }[], config: Config) {
  const stale = subscribers
    .map((s) => ({ id: s.id, hash: hashManageToken(manageToken(s.id, config)), old: s.manageTokenHash }))
    .filter((s) => s.hash !== s.old);
  if (!stale.length) return;
  await db.execute(sql`update ${newsletterSubscribers} s set manage_token_hash = v.hash
    from (values ${sql.join(
      stale.map((r) => sql`(${r.id}::int, ${r.hash}::text)`),
      sql`, `,
    )}) as v(id, hash)
    where s.id = v.id`);
}

export type ManagedSubscriber = {
  id: number;
  email: string;
  status: "pending" | "confirmed" | "unsubscribed";
  language: Language;
  frequency: NewsletterFrequency;
};

/** The subscriber a token belongs to, or null (a malformed token is never looked up). */
export async function subscriberByToken(db: Database, token: unknown): Promise<ManagedSubscriber | null> {
  if (typeof token !== "string" || !TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({
      id: newsletterSubscribers.id,
      email: newsletterSubscribers.email,
      status: newsletterSubscribers.status,
      language: newsletterSubscribers.language,
      frequency: newsletterSubscribers.frequency,
    })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.manageTokenHash, hashManageToken(token)))
    .limit(1);
  if (!row) return null;
  const language = (LANGUAGES as readonly string[]).includes(row.language) ? (row.language as Language) : "ar";
  return { ...row, language };
}

export class NewsletterTokenError extends BadRequestError {
  constructor() {
    super("TOKEN_INVALID", "This link is not valid (anymore).");
  }
}

/**
 * One-click unsubscribe (RFC 8058) and the confirmation page's button: the subscriber stops receiving
 * anything; the send the link came from (when it names one of this subscriber's deliveries) counts it.
 */
export async function unsubscribeByToken(
  db: Database,
  token: unknown,
  sendId: unknown,
  { now = new Date() }: { now?: Date } = {},
): Promise<{ alreadyUnsubscribed: boolean; subscriber: ManagedSubscriber }> {
  const subscriber = await subscriberByToken(db, token);
  if (!subscriber) throw new NewsletterTokenError();
  const alreadyUnsubscribed = subscriber.status === "unsubscribed";
  if (!alreadyUnsubscribed) {
    await db.transaction(async (tx) => {
      await tx
        .update(newsletterSubscribers)
        .set({ status: "unsubscribed", unsubscribedAt: now, updatedAt: now })
        .where(eq(newsletterSubscribers.id, subscriber.id));
      const send = typeof sendId === "string" && /^[1-9]\d{0,9}$/.test(sendId) ? Number(sendId) : null;
      if (send !== null && send <= 2_147_483_647) {
        await tx
          .update(newsletterDeliveries)
          .set({ unsubscribedAt: now })
          .where(and(eq(newsletterDeliveries.sendId, send), eq(newsletterDeliveries.subscriberId, subscriber.id)));
      }
    });
    logger.info({ subscriber: subscriber.id, send: sendId ?? null }, "newsletter: unsubscribed");
  }
  return { alreadyUnsubscribed, subscriber: { ...subscriber, status: "unsubscribed" } };
}

/**
 * The preferences page's form. Saving from an unsubscribed address subscribes it again (the link proves the
 * mailbox is the reader's); a pending one stays pending (it has no link to come from).
 */
export async function updatePreferences(
  db: Database,
  token: unknown,
  { language, frequency }: { language: Language; frequency: NewsletterFrequency },
  { now = new Date() }: { now?: Date } = {},
): Promise<ManagedSubscriber> {
  const subscriber = await subscriberByToken(db, token);
  if (!subscriber) throw new NewsletterTokenError();
  const status = subscriber.status === "unsubscribed" ? "confirmed" : subscriber.status;
  await db
    .update(newsletterSubscribers)
    .set({ language, frequency, status, updatedAt: now, ...(status !== subscriber.status ? { unsubscribedAt: null } : {}) })
    .where(eq(newsletterSubscribers.id, subscriber.id));
  return { ...subscriber, language, frequency, status };
}

// ---- Choosing the items -------------------------------------------------------------------------------

/** An item as the newsletter shows it, in the send's language. */
export type NewsletterItem = NewsletterItemRef & { title: string; summary: string | null; url: string; imageUrl: string | null; publishDate: string };

/** A candidate of the digest, with what ranked it. */
export type DigestCandidate = NewsletterItem & { priority: "high" | "medium" | "low"; reads: number };

const MAIL_TYPES = ALL_CONTENT_TYPES.filter((d) => d.detailPage).map((d) => d.type);

export const isNewsletterType = (type: string): type is ContentType => (MAIL_TYPES as readonly string[]).includes(type);

const PERIOD_MS: Record<DigestPeriod, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 };

/** The schema key of a type's summary column (an article's excerpt, a podcast's description). */
const summaryKey = (type: ContentType) => {
  const d = definitionOf(type);
  return d.fields.find((f) => f.name === d.summaryField)!.column;
};

type CandidateRow = {
  type: string;
  id: number;
  slug: string;
  title: string;
  title_fr: string | null;
  summary: string | null;
  summary_fr: string | null;
  image_url: string | null;
  publish_date: string | Date;
  priority: string;
  reads: number;
};

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Published items of every type with a page, as the newsletter needs them: ranked by priority (a news item's
 * high, medium, low; other types count as medium), then reads (the item's running view count where its type
 * keeps one, plus today's distinct readers), then the newest. For French and English, items with a French
 * title come first. `where` narrows each type's rows.
 */
async function rankedItems(db: Database, language: Language, where: (type: ContentType) => SQL | undefined, limit: number): Promise<DigestCandidate[]> {
  const day = today();
  const selects = MAIL_TYPES.map((type) => {
    const t = tableOf(type);
    const priority = columnOf(type, "priority");
    const viewCount = definitionOf(type).viewCounter ? columnOf(type, "viewCount") : undefined;
    const summary = columnOf(type, summaryKey(type));
    const summaryFr = columnOf(type, `${summaryKey(type)}Fr`);
    return sql`select ${type}::text as type, ${t.id} as id, ${t.pageSlug} as slug, ${t.title} as title, ${t.titleFr} as title_fr,
      ${summary ?? sql`null`}::text as summary, ${summaryFr ?? sql`null`}::text as summary_fr, ${t.imageUrl} as image_url,
      ${t.publishDate} as publish_date, ${priority ?? sql`'medium'`}::text as priority,
      (${viewCount ?? sql`0`} + (select count(*) from ${contentViews} cv where cv.content_type = ${type} and cv.content_id = ${t.id} and cv.day = ${day}::date))::int as reads
      from ${t} where ${isPublished(t, where(type))}`;
  });
  const frenchFirst = language === "ar" ? sql`` : sql`(title_fr is null or title_fr = ''), `;
  const rows = rowsOf<CandidateRow>(
    await db.execute(sql`select * from (${sql.join(selects, sql` union all `)}) items
      order by ${frenchFirst}case priority when 'high' then 0 when 'medium' then 1 else 2 end, reads desc, publish_date desc, id desc
      limit ${limit}`),
  );
  return rows.map((r) => asItem(r, language));
}

function asItem(r: CandidateRow, language: Language): DigestCandidate {
  const type = r.type as ContentType;
  const french = language !== "ar";
  return {
    type,
    id: Number(r.id),
    title: (french && r.title_fr) || r.title,
    summary: ((french && r.title_fr && r.summary_fr) || r.summary || null)?.slice(0, NEWSLETTER_LIMITS.summary) ?? null,
    url: publicUrl(type, r.slug, Number(r.id)),
    imageUrl: r.image_url,
    publishDate: new Date(r.publish_date).toISOString(),
    priority: r.priority === "high" || r.priority === "low" ? r.priority : "medium",
    reads: Number(r.reads),
  };
}

/** The digest's automatic choice: the period's top items in `language`, best first. */
export async function digestCandidates(
  db: Database,
  { period, language, now = new Date(), limit = NEWSLETTER_LIMITS.digestItems }: { period: DigestPeriod; language: Language; now?: Date; limit?: number },
): Promise<DigestCandidate[]> {
  const since = new Date(now.getTime() - PERIOD_MS[period]);
  return rankedItems(db, language, (type) => sql`${tableOf(type).publishDate} >= ${since.toISOString()}`, limit);
}

/** Items an editor may add: the latest published of every type (the one-off send's picker, the digest's "add"). */
export async function recentItems(db: Database, language: Language, limit = 60): Promise<DigestCandidate[]> {
  const since = new Date(Date.now() - 30 * 86_400_000);
  const items = await rankedItems(db, language, (type) => sql`${tableOf(type).publishDate} >= ${since.toISOString()}`, 500);
  return items.sort((a, b) => b.publishDate.localeCompare(a.publishDate)).slice(0, limit);
}

/** The chosen items, in the chosen order, as they are now: each must exist and be published (else 400). */
export async function resolveItems(db: Database, refs: NewsletterItemRef[], language: Language): Promise<NewsletterItem[]> {
  if (!refs.length) return [];
  const byType = new Map<ContentType, number[]>();
  for (const ref of refs) byType.set(ref.type, [...(byType.get(ref.type) ?? []), ref.id]);
  const found = new Map<string, DigestCandidate>();
  for (const [type, ids] of byType) {
    const rows = await rankedItems(db, language, (t) => (t === type ? inArray(tableOf(t).id, ids) : sql`false`), ids.length);
    for (const row of rows) found.set(`${row.type}:${row.id}`, row);
  }
  return refs.map((ref) => {
    const item = found.get(`${ref.type}:${ref.id}`);
    if (!item)
      throw new BadRequestError("ITEM_UNAVAILABLE", `The item ${ref.type}:${ref.id} is not published.`, {
        fields: { items: "newsletterAdmin.errors.itemUnavailable" },
      });
    return { type: item.type, id: item.id, title: item.title, summary: item.summary, url: item.url, imageUrl: item.imageUrl, publishDate: item.publishDate };
  });
}

// ---- The mail -----------------------------------------------------------------------------------------

export type NewsletterContent = { kind: NewsletterSendKind; language: Language; subject: string; intro: string | null; items: NewsletterItem[] };

/** A placeholder for the recipient's token, replaced per message (the body is written once per send). */
const TOKEN_SLOT = "__NEWSLETTER_TOKEN__";

const absolute = (config: Config, url: string) => (/^https?:\/\//i.test(url) ? url : `${config.publicUrl}${url.startsWith("/") ? "" : "/"}${url}`);

export function unsubscribeUrl(token: string, sendId: number | null, config: Config = getConfig()) {
  return `${config.publicUrl}/newsletter/unsubscribe?token=${token}${sendId ? `&send=${sendId}` : ""}`;
}

export function preferencesUrl(token: string, config: Config = getConfig()) {
  return `${config.publicUrl}/newsletter/preferences?token=${token}`;
}

/**
 * The mail of a send, for one recipient's token (TOKEN_SLOT for the template). HTML for mail clients: tables,
 * inline styles only; in Arabic `dir="rtl"` and right alignment on every block (align and text-align), since
 * several clients drop the document's direction.
 */
export function renderNewsletter(
  content: NewsletterContent,
  { token, sendId, config = getConfig() }: { token: string; sendId: number | null; config?: Config },
) {
  const lang = content.language;
  const rtl = lang === "ar";
  const dir = rtl ? "rtl" : "ltr";
  const align = rtl ? "right" : "left";
  const site = lang === "ar" ? config.SITE_NAME : config.SITE_NAME_FR;
  const t = (key: string) => translate(lang, `newsletterMail.${key}`).replaceAll("{site}", site);
  const unsubscribe = unsubscribeUrl(token, sendId, config);
  const preferences = preferencesUrl(token, config);
  const e = escapeHtml;
  const cell = `dir="${dir}" align="${align}" style="direction:${dir};text-align:${align};`;
  const font = "font-family:Tahoma,Arial,sans-serif;";

  const itemsHtml = content.items
    .map((item) => {
      const url = absolute(config, item.url);
      const image = item.imageUrl
        ? `<tr><td ${cell}padding:0 0 8px 0;"><a href="${e(url)}"><img src="${e(absolute(config, item.imageUrl))}" alt="" width="560" style="display:block;width:100%;max-width:560px;height:auto;border:0;border-radius:6px;"></a></td></tr>`
        : "";
      const summary = item.summary ? `<tr><td ${cell}${font}font-size:15px;line-height:1.7;color:#444444;padding:0 0 6px 0;">${e(item.summary)}</td></tr>` : "";
      return `<tr><td ${cell}padding:16px 0;border-bottom:1px solid #eadfcc;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="direction:${dir};">${image}<tr><td ${cell}${font}font-size:19px;line-height:1.5;font-weight:bold;padding:0 0 6px 0;"><a href="${e(url)}" style="color:#8a4b14;text-decoration:none;">${e(item.title)}</a></td></tr>${summary}<tr><td ${cell}${font}font-size:13px;color:#777777;">${e(formatDate(item.publishDate, lang))} · <a href="${e(url)}" style="color:#8a4b14;">${e(t("readMore"))}</a></td></tr></table></td></tr>`;
    })
    .join("");
  const intro = content.intro
    ? `<tr><td ${cell}${font}font-size:16px;line-height:1.8;color:#222222;padding:0 0 8px 0;">${e(content.intro).replace(/\n/g, "<br>")}</td></tr>`
    : "";
  const html = `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(content.subject)}</title></head><body dir="${dir}" style="margin:0;padding:0;background:#f7f2ea;direction:${dir};text-align:${align};"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="background:#f7f2ea;direction:${dir};"><tr><td align="center" style="padding:24px 12px;"><table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="width:100%;max-width:600px;background:#ffffff;border-radius:8px;direction:${dir};"><tr><td ${cell}padding:24px 20px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="direction:${dir};"><tr><td ${cell}${font}font-size:14px;font-weight:bold;color:#8a4b14;padding:0 0 4px 0;">${e(site)}</td></tr><tr><td ${cell}${font}font-size:24px;font-weight:bold;line-height:1.4;color:#222222;padding:0 0 12px 0;">${e(content.subject)}</td></tr>${intro}${itemsHtml}<tr><td ${cell}${font}font-size:12px;line-height:1.7;color:#777777;padding:20px 0 0 0;">${e(t("why"))}<br><a href="${e(preferences)}" style="color:#8a4b14;">${e(t("preferences"))}</a> · <a href="${e(unsubscribe)}" style="color:#8a4b14;">${e(t("unsubscribe"))}</a></td></tr></table></td></tr></table></td></tr></table></body></html>`;

  const text = [
    site,
    content.subject,
    "",
    ...(content.intro ? [content.intro, ""] : []),
    ...content.items.flatMap((item) => [item.title, ...(item.summary ? [item.summary] : []), absolute(config, item.url), ""]),
    "--",
    t("why"),
    `${t("preferences")}: ${preferences}`,
    `${t("unsubscribe")}: ${unsubscribe}`,
  ].join("\n");
  const headers = {
    "List-Unsubscribe": `<${unsubscribe}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    "List-Id": `${site.replace(/[<>"]/g, "")} <newsletter.${new URL(config.publicUrl).hostname}>`,
  };
  return { subject: content.subject, html, text, headers, links: [unsubscribe, preferences] };
}

// ---- Sends ---------------------------------------------------------------------------------------------

export type SendInput = {
  kind: NewsletterSendKind;
  period: DigestPeriod | null;
  language: Language;
  subject: string;
  intro: string | null;
  items: NewsletterItemRef[];
};

/** Who a send goes to: confirmed subscribers of its language; a digest those of its frequency, an item anyone not at `none`. */
function audience(kind: NewsletterSendKind, period: DigestPeriod | null, language: Language): SQL {
  const s = newsletterSubscribers;
  const frequency = kind === "digest" ? eq(s.frequency, period ?? "daily") : inArray(s.frequency, ["daily", "weekly"]);
  return and(eq(s.status, "confirmed"), eq(s.language, language), frequency) as SQL;
}

export async function audienceSize(db: Database, { kind, period, language }: Pick<SendInput, "kind" | "period" | "language">): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(newsletterSubscribers)
    .where(audience(kind, period, language));
  return Number(row?.n ?? 0);
}

/**
 * Queues a send: its row, one delivery per recipient (one INSERT … SELECT, in the same transaction, so a send
 * is never half-addressed) and the job. Returns the send's id and how many it goes to.
 */
export async function createSend(
  db: Database,
  input: SendInput,
  { user, enqueueJob }: { user?: { id: string; name: string | null; email?: string }; enqueueJob: (db: Database, sendId: number) => Promise<unknown> },
): Promise<{ id: number; total: number }> {
  if (!input.items.length)
    throw new BadRequestError("NO_ITEMS", "A newsletter needs at least one item.", { fields: { items: "newsletterAdmin.errors.noItems" } });
  const items = await resolveItems(db, input.items, input.language);
  const created = await db.transaction(async (tx) => {
    const [send] = await tx
      .insert(newsletterSends)
      .values({
        kind: input.kind,
        period: input.kind === "digest" ? input.period : null,
        language: input.language,
        subject: input.subject,
        intro: input.intro,
        items,
        createdBy: user?.id ?? null,
        createdByName: user?.name ?? null,
      })
      .returning({ id: newsletterSends.id });
    const inserted = await tx.execute(sql`
      insert into ${newsletterDeliveries} (send_id, subscriber_id, email)
      select ${send.id}, id, email from ${newsletterSubscribers} where ${audience(input.kind, input.period, input.language)}
      on conflict do nothing`);
    const total = Number(
      (inserted as unknown as { affectedRows?: number; rowCount?: number }).affectedRows ?? (inserted as { rowCount?: number }).rowCount ?? 0,
    );
    await tx.update(newsletterSends).set({ total }).where(eq(newsletterSends.id, send.id));
    // Who sent what to how many: one audit row in the same transaction (issue 40, decision 0140).
    await recordAudit(tx as unknown as Database, {
      actor: user ? { id: user.id, email: user.email ?? "" } : null,
      action: "newsletter_send",
      details: { send_id: send.id, kind: input.kind, language: input.language, subject: input.subject, total },
    });
    return { id: send.id, total };
  });
  await enqueueJob(db, created.id);
  logger.info({ send: created.id, total: created.total, kind: input.kind, language: input.language }, "newsletter: send queued");
  return created;
}

export type SendSummary = {
  id: number;
  kind: NewsletterSendKind;
  period: DigestPeriod | null;
  language: Language;
  subject: string;
  state: "queued" | "sending" | "sent" | "failed" | "cancelled";
  total: number;
  sent: number;
  failed: number;
  pending: number;
  skipped: number;
  unsubscribed: number;
  createdAt: string;
  finishedAt: string | null;
  createdByName: string | null;
  lastError: string | null;
};

/** How long a send's per-recipient rows are kept; then only its counts remain (pruneDeliveries, a daily job). */
export const NEWSLETTER_DELIVERIES_KEPT_DAYS = 90;

type StoredCounts = { sent: number; failed: number; pending: number; skipped: number; unsubscribed: number };

/**
 * Deletes the delivery rows of sends finished more than `days` ago, keeping their counts on the send (one send at
 * a time, each in a transaction). An unsubscribe from such an old mail still works; it is no longer counted.
 */
export async function pruneDeliveries(db: Database, { days = NEWSLETTER_DELIVERIES_KEPT_DAYS, now = new Date() }: { days?: number; now?: Date } = {}) {
  const before = new Date(now.getTime() - days * 86_400_000);
  const old = await db
    .select({ id: newsletterSends.id })
    .from(newsletterSends)
    .where(
      and(
        sql`${newsletterSends.counts} is null`,
        sql`${newsletterSends.finishedAt} < ${before.toISOString()}`,
        inArray(newsletterSends.state, ["sent", "failed", "cancelled"]),
      ),
    )
    .limit(100);
  let pruned = 0;
  for (const { id } of old) {
    await db.transaction(async (tx) => {
      const counts = await countsOf(tx as unknown as Database, [id]);
      await tx
        .update(newsletterSends)
        .set({ counts: counts.get(id) ?? { sent: 0, failed: 0, pending: 0, skipped: 0, unsubscribed: 0 } })
        .where(eq(newsletterSends.id, id));
      const removed = await tx.delete(newsletterDeliveries).where(eq(newsletterDeliveries.sendId, id)).returning({ id: newsletterDeliveries.id });
      pruned += removed.length;
    });
  }
  return pruned;
}

/** Each send's delivery counts, from one grouped scan. */
async function countsOf(db: Database, ids: number[]): Promise<Map<number, StoredCounts>> {
  if (!ids.length) return new Map();
  const rows = rowsOf<{ send_id: number; state: string; n: number; unsubscribed: number }>(
    await db.execute(sql`select send_id, state, count(*)::int as n, count(unsubscribed_at)::int as unsubscribed
      from ${newsletterDeliveries} where send_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) group by send_id, state`),
  );
  const counts = new Map<number, StoredCounts>();
  for (const id of ids) {
    const mine = rows.filter((c) => Number(c.send_id) === id);
    const of = (state: string) => Number(mine.find((c) => c.state === state)?.n ?? 0);
    counts.set(id, {
      sent: of("sent"),
      failed: of("failed"),
      pending: of("pending") + of("sending"),
      skipped: of("skipped"),
      unsubscribed: mine.reduce((sum, c) => sum + Number(c.unsubscribed), 0),
    });
  }
  return counts;
}

/** The latest sends with their counts (one grouped scan of their deliveries; a pruned send's stored counts). */
export async function listSends(db: Database, { limit = 50 }: { limit?: number } = {}): Promise<SendSummary[]> {
  const sends = await db.select().from(newsletterSends).orderBy(desc(newsletterSends.createdAt), desc(newsletterSends.id)).limit(limit);
  if (!sends.length) return [];
  const live = await countsOf(
    db,
    sends.filter((s) => !s.counts).map((s) => s.id),
  );
  return sends.map((s) => {
    const counts = (s.counts as StoredCounts | null) ?? live.get(s.id)!;
    return {
      id: s.id,
      kind: s.kind,
      period: s.period,
      language: s.language as Language,
      subject: s.subject,
      state: s.state,
      total: s.total,
      ...counts,
      createdAt: s.createdAt.toISOString(),
      finishedAt: s.finishedAt?.toISOString() ?? null,
      createdByName: s.createdByName,
      lastError: s.lastError,
    };
  });
}

/** Stops a queued or running send: what is not sent yet stays unsent (skipped). */
export async function cancelSend(db: Database, id: number): Promise<void> {
  const [row] = await db
    .update(newsletterSends)
    .set({ state: "cancelled", finishedAt: new Date() })
    .where(and(eq(newsletterSends.id, id), inArray(newsletterSends.state, ["queued", "sending"])))
    .returning({ id: newsletterSends.id });
  if (!row) throw new NotFoundError("No send in progress with this id.");
  await db
    .update(newsletterDeliveries)
    .set({ state: "skipped" })
    .where(and(eq(newsletterDeliveries.sendId, id), eq(newsletterDeliveries.state, "pending")));
}

// ---- Running a send (the job) --------------------------------------------------------------------------

export type SendRunOptions = {
  config?: Config;
  batchSize?: number;
  ratePerMinute?: number;
  /** Waits between batches (tests replace it to count the pauses). */
  sleep?: (ms: number) => Promise<void>;
  /** The clock the rate is kept by (tests stop it). */
  now?: () => number;
  /** True when the worker is shutting down: the send stops between batches (or during the wait) and resumes later. */
  shouldStop?: () => boolean;
  /** Attempts per recipient before a passing failure counts as failed. */
  maxAttempts?: number;
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A failure the server said is final (5xx reply: no such mailbox, refused): retrying would not help. */
const isPermanent = (error: unknown) => {
  const cause = (error as { cause?: { responseCode?: number } } | null)?.cause;
  const code = Number((error as { responseCode?: number } | null)?.responseCode ?? cause?.responseCode);
  return code >= 500 && code < 600;
};

export class SendBatchFailed extends Error {}

/**
 * Sends what is left of a send, batch after batch, at most `ratePerMinute` messages a minute. Safe to run
 * again at any point: deliveries left `sending` by a worker that died go back to `pending` first.
 */
export async function runSend(db: Database, sendId: number, options: SendRunOptions = {}): Promise<{ sent: number; failed: number; stopped: boolean }> {
  const config = options.config ?? getConfig();
  const batchSize = options.batchSize ?? config.NEWSLETTER_BATCH_SIZE;
  const rate = options.ratePerMinute ?? config.NEWSLETTER_RATE_PER_MINUTE;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const maxAttempts = options.maxAttempts ?? 3;
  const [send] = await db.select().from(newsletterSends).where(eq(newsletterSends.id, sendId)).limit(1);
  if (!send || send.state === "sent" || send.state === "cancelled") return { sent: 0, failed: 0, stopped: false };
  const shouldStop = options.shouldStop ?? (() => false);
  /** The wait between batches, a second at a time, so that a worker shutting down is not held for minutes. */
  const pause = async (ms: number) => {
    for (let left = ms; left > 0 && !shouldStop(); left -= 1000) await sleep(Math.min(1000, left));
  };
  const content: NewsletterContent = {
    kind: send.kind,
    language: (LANGUAGES as readonly string[]).includes(send.language) ? (send.language as Language) : "ar",
    subject: send.subject,
    intro: send.intro,
    items: send.items as NewsletterItem[],
  };
  const template = renderNewsletter(content, { token: TOKEN_SLOT, sendId, config });
  const fill = (text: string, token: string) => text.replaceAll(TOKEN_SLOT, token);

  // The batch a dead worker had in flight: unknown whether it went out, so it goes out (again).
  const requeued = await db
    .update(newsletterDeliveries)
    .set({ state: "pending" })
    .where(and(eq(newsletterDeliveries.sendId, sendId), eq(newsletterDeliveries.state, "sending")))
    .returning({ id: newsletterDeliveries.id });
  if (requeued.length) logger.warn({ send: sendId, deliveries: requeued.length }, "newsletter: resuming a send; the batch in flight is sent again");
  await db
    .update(newsletterSends)
    .set({ state: "sending", startedAt: send.startedAt ?? new Date() })
    .where(eq(newsletterSends.id, sendId));

  let sent = 0;
  let failed = 0;
  let stopped = false;
  for (;;) {
    if (shouldStop()) {
      stopped = true;
      break;
    }
    const [current] = await db.select({ state: newsletterSends.state }).from(newsletterSends).where(eq(newsletterSends.id, sendId));
    if (!current || current.state === "cancelled") break;
    const batchStarted = now();
    // Claim: this batch is now "in flight"; a crash from here until it is marked repeats it, and only it.
    const claimed = rowsOf<{
      id: number;
      subscriber_id: number;
      email: string;
      attempts: number;
      status: string;
      language: string;
      manage_token_hash: string | null;
    }>(
      await db.execute(sql`
        with batch as (
          select id from ${newsletterDeliveries} where send_id = ${sendId} and state = 'pending'
          order by id limit ${batchSize} for update skip locked
        )
        update ${newsletterDeliveries} d set state = 'sending', claimed_at = now(), attempts = d.attempts + 1
        from batch, ${newsletterSubscribers} s
        where d.id = batch.id and s.id = d.subscriber_id
        returning d.id, d.subscriber_id, d.email, d.attempts, s.status, s.language, s.manage_token_hash`),
    );
    if (!claimed.length) break;

    // Whoever unsubscribed or changed language since the send was queued is not mailed.
    const gone = claimed.filter((c) => c.status !== "confirmed" || c.language !== content.language);
    if (gone.length) {
      await db
        .update(newsletterDeliveries)
        .set({ state: "skipped" })
        .where(
          inArray(
            newsletterDeliveries.id,
            gone.map((g) => Number(g.id)),
          ),
        );
    }
    const recipients = claimed.filter((c) => !gone.includes(c));
    await storeTokenHashes(
      db,
      recipients.map((r) => ({ id: Number(r.subscriber_id), manageTokenHash: r.manage_token_hash })),
      config,
    );

    const outcomes = await Promise.all(
      recipients.map(async (r) => {
        const token = manageToken(Number(r.subscriber_id), config);
        const message: MailMessage = {
          to: r.email,
          subject: template.subject,
          text: fill(template.text, token),
          html: fill(template.html, token),
          headers: Object.fromEntries(Object.entries(template.headers).map(([k, v]) => [k, fill(v, token)])),
        };
        try {
          await sendMail(message, config, { bulk: true });
          return { r, error: null as unknown };
        } catch (error) {
          return { r, error };
        }
      }),
    );
    const ok = outcomes.filter((o) => o.error === null).map((o) => Number(o.r.id));
    if (ok.length) await db.update(newsletterDeliveries).set({ state: "sent", sentAt: new Date(), error: null }).where(inArray(newsletterDeliveries.id, ok));
    sent += ok.length;
    const failures = outcomes.filter((o) => o.error !== null);
    for (const { r, error } of failures) {
      const final = isPermanent(error) || Number(r.attempts) >= maxAttempts;
      if (final) failed++;
      await db
        .update(newsletterDeliveries)
        .set({ state: final ? "failed" : "pending", error: String((error as Error)?.message ?? error).slice(0, 500) })
        .where(eq(newsletterDeliveries.id, Number(r.id)));
    }
    if (failures.length && !ok.length && failures.every((f) => !isPermanent(f.error))) {
      // Nothing of the batch went through: the mail server is likely down; the job retries later.
      throw new SendBatchFailed(`newsletter send ${sendId}: no message of the batch could be sent (${String((failures[0].error as Error)?.message ?? "")})`);
    }

    // The rate: a batch of n messages takes at least n / rate minutes.
    const wait = (claimed.length * 60_000) / rate - (now() - batchStarted);
    if (wait > 0) await (options.sleep ? sleep(wait) : pause(wait));
  }

  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(newsletterDeliveries)
    .where(and(eq(newsletterDeliveries.sendId, sendId), inArray(newsletterDeliveries.state, ["pending", "sending"])));
  if (Number(left?.n ?? 0) === 0) {
    const [counts] = await db
      .select({ sent: sql<number>`count(*) filter (where state = 'sent')::int`, all: sql<number>`count(*)::int` })
      .from(newsletterDeliveries)
      .where(eq(newsletterDeliveries.sendId, sendId));
    const failedAll = Number(counts?.all ?? 0) > 0 && Number(counts?.sent ?? 0) === 0;
    await db
      .update(newsletterSends)
      .set({ state: failedAll ? "failed" : "sent", finishedAt: new Date() })
      .where(and(eq(newsletterSends.id, sendId), eq(newsletterSends.state, "sending")));
    logger.info({ send: sendId, sent, failed }, "newsletter: send finished");
  }
  return { sent, failed, stopped };
}

/** The job's last attempt failed: the send says so (what was sent stays sent; a new attempt can be queued). */
export async function markSendFailed(db: Database, sendId: number, error: unknown) {
  await db
    .update(newsletterSends)
    .set({ state: "failed", lastError: String((error as Error)?.message ?? error).slice(0, 1000), finishedAt: new Date() })
    .where(and(eq(newsletterSends.id, sendId), inArray(newsletterSends.state, ["queued", "sending"])));
}

/** A failed send with recipients left is queued again (the screen's "resume"). */
export async function resumeSend(db: Database, id: number, enqueueJob: (db: Database, sendId: number) => Promise<unknown>) {
  const [row] = await db
    .update(newsletterSends)
    .set({ state: "queued", lastError: null, finishedAt: null })
    .where(
      and(
        eq(newsletterSends.id, id),
        eq(newsletterSends.state, "failed"),
        sql`exists (select 1 from ${newsletterDeliveries} where send_id = ${id} and state in ('pending', 'sending'))`,
      ),
    )
    .returning({ id: newsletterSends.id });
  if (!row) throw new NotFoundError("No failed send with recipients left with this id.");
  await enqueueJob(db, id);
}

/** The sends' delivery state counts of one send (tests, scripts). */
export async function deliveryCounts(db: Database, sendId: number): Promise<Record<string, number>> {
  const rows = await db
    .select({ state: newsletterDeliveries.state, n: sql<number>`count(*)::int` })
    .from(newsletterDeliveries)
    .where(eq(newsletterDeliveries.sendId, sendId))
    .groupBy(newsletterDeliveries.state)
    .orderBy(asc(newsletterDeliveries.state));
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}
