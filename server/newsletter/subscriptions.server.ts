/**
 * Newsletter sign-up with double opt-in. Subscribing stores (or refreshes) a pending row holding the SHA-256
 * of a random token and e-mails the token as a link; opening the link confirms the row. The answer to the
 * visitor is the same whether the address was new, pending or already confirmed, so the form cannot be used
 * to learn who subscribes: in its words and status, and in its time. The request only queues a job, the same
 * one for every address (subscribeToNewsletter); the job decides what the address needs and sends the mail
 * (sendConfirmation, run by server/newsletter/jobs.server.ts). Sent inside the request, the mail made a new
 * address answer about 25 ms slower than a confirmed one.
 *
 * The token is valid for 48 hours from when it was issued (the row's updated_at, which only this module
 * writes) and works once: confirming clears its hash.
 */
import escapeHtml from "escape-html";
import crypto from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { newsletterSubscribers } from "#server/db/schema.server.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import { sendMail } from "#server/ops/mail.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { linkExpiry, translate } from "#server/http/i18n.server.ts";
import { enqueue } from "#server/jobs/queue.server.ts";
import type { Language } from "#domain/language.ts";
import { localizedPath } from "#domain/addresses.ts";

export const CONFIRMATION_TTL_MS = 48 * 60 * 60 * 1000;
/** A second sign-up for the same pending address within this time sends no second e-mail. */
export const RESEND_INTERVAL_MS = 60 * 1000;

/** Sign-ups accepted per client address: a person signs up once or twice; a script mailing strangers stops. */
export const NEWSLETTER_RATE_LIMIT = { limit: 5, windowMs: 10 * 60 * 1000 } as const;

/** The job that sends a sign-up's confirmation e-mail (its handler: server/newsletter/jobs.server.ts). */
export const NEWSLETTER_CONFIRM_JOB = "newsletter.confirm";
/** Attempts at a confirmation e-mail: the mail server may be down for a minute (the queue waits 10 s, then 40 s). */
export const NEWSLETTER_CONFIRM_ATTEMPTS = 3;

export const hashToken = (token: string) => crypto.createHash("sha256").update(token, "utf8").digest("hex");

/** The confirmation page in the subscriber's language (its address, issue 42: /fr/newsletter/confirm for French). */
export function confirmationLink(token: string, config: Config = getConfig(), language: Language = "ar") {
  return `${config.publicUrl}${localizedPath(language, `/newsletter/confirm?token=${encodeURIComponent(token)}`)}`;
}

type Options = { config?: Config; now?: Date };

/**
 * Signs an address up (already validated and normalised by NewsletterSchema): queues the job that sends the
 * confirmation, and nothing else, whatever the address's state, so that every sign-up takes the same time.
 * While one job for the address waits, another sign-up queues none (its singleton key, a hash: no address in
 * the index).
 */
export async function subscribeToNewsletter(db: Database, { email, language }: { email: string; language: Language }): Promise<void> {
  await enqueue(
    db,
    NEWSLETTER_CONFIRM_JOB,
    { email, language },
    { singletonKey: `${NEWSLETTER_CONFIRM_JOB}:${hashToken(email)}`, maxAttempts: NEWSLETTER_CONFIRM_ATTEMPTS },
  );
}

/**
 * The sign-up's work, run by its job: a new or returning address gets a pending row and the e-mail, a
 * confirmed one nothing, a pending one signed up a moment ago nothing more. Returns what happened, for the
 * logs and tests. Throws when the e-mail could not be sent (the job tries again), leaving no new row behind.
 */
export async function sendConfirmation(
  db: Database,
  { email, language }: { email: string; language: Language },
  { config = getConfig(), now = new Date() }: Options = {},
): Promise<{ outcome: "sent" | "already-confirmed" | "recently-sent" }> {
  const [existing] = await db
    .select({ id: newsletterSubscribers.id, status: newsletterSubscribers.status, updatedAt: newsletterSubscribers.updatedAt })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.email, email))
    .limit(1);
  if (existing?.status === "confirmed") return { outcome: "already-confirmed" };
  if (existing?.status === "pending" && now.getTime() - existing.updatedAt.getTime() < RESEND_INTERVAL_MS) return { outcome: "recently-sent" };

  const token = crypto.randomBytes(32).toString("base64url");
  const tokenHash = hashToken(token);
  // One statement for new and returning addresses: two sign-ups racing for one address cannot both insert.
  const [row] = await db
    .insert(newsletterSubscribers)
    .values({ email, status: "pending", tokenHash, language, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: newsletterSubscribers.email,
      set: { status: "pending", tokenHash, language, updatedAt: now, confirmedAt: null },
      // A confirmation that landed between the read above and this write wins.
      setWhere: sql`${newsletterSubscribers.status} <> 'confirmed'`,
    })
    .returning({ id: newsletterSubscribers.id, createdAt: newsletterSubscribers.createdAt });
  if (!row) return { outcome: "already-confirmed" };

  const link = confirmationLink(token, config, language);
  try {
    await sendMail({ to: email, ...confirmationMail(language, link, config), links: [link] }, config);
  } catch (error) {
    // Leave nothing half-done behind: a new row without a delivered link is removed; a refreshed one keeps
    // its new (undelivered) token, which is as good as none.
    if (!existing) await db.delete(newsletterSubscribers).where(and(eq(newsletterSubscribers.id, row.id), eq(newsletterSubscribers.status, "pending")));
    throw error;
  }
  logger.info({ subscriber: row.id }, "newsletter: confirmation e-mail sent");
  return { outcome: "sent" };
}

export type ConfirmResult = { ok: true; email: string } | { ok: false; code: "TOKEN_INVALID" | "TOKEN_EXPIRED" };

/** Confirms the subscriber a token belongs to; the token works once and for 48 hours. */
export async function confirmNewsletterSubscription(db: Database, token: unknown, { now = new Date() }: { now?: Date } = {}): Promise<ConfirmResult> {
  if (typeof token !== "string" || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { ok: false, code: "TOKEN_INVALID" };
  const tokenHash = hashToken(token);
  const issuedAfter = new Date(now.getTime() - CONFIRMATION_TTL_MS);
  // One conditional UPDATE: of two clicks racing on the same link, exactly one confirms.
  const [confirmed] = await db
    .update(newsletterSubscribers)
    .set({ status: "confirmed", confirmedAt: now, tokenHash: null, updatedAt: now })
    .where(and(eq(newsletterSubscribers.tokenHash, tokenHash), eq(newsletterSubscribers.status, "pending"), gt(newsletterSubscribers.updatedAt, issuedAfter)))
    .returning({ email: newsletterSubscribers.email });
  if (confirmed) return { ok: true, email: confirmed.email };
  const [stale] = await db
    .select({ id: newsletterSubscribers.id })
    .from(newsletterSubscribers)
    .where(and(eq(newsletterSubscribers.tokenHash, tokenHash), eq(newsletterSubscribers.status, "pending")))
    .limit(1);
  return { ok: false, code: stale ? "TOKEN_EXPIRED" : "TOKEN_INVALID" };
}

/**
 * The confirmation e-mail in the reader's language (Arabic by default). Its strings are the translation files'
 * (newsletterMail.*); how long the link lives is a counted string written from CONFIRMATION_TTL_MS.
 */
export function confirmationMail(language: Language, link: string, config: Config = getConfig()): { subject: string; text: string; html: string } {
  const lang: Language = language === "fr" || language === "en" ? language : "ar";
  const site = lang === "ar" ? config.SITE_NAME : config.SITE_NAME_FR;
  const text = (key: string) => translate(lang, `newsletterMail.${key}`).replaceAll("{site}", site);
  const subject = text("subject");
  const lines = [text("thanks"), text("open"), link, linkExpiry(lang, CONFIRMATION_TTL_MS / 1000), "", text("ignore")];
  const dir = lang === "ar" ? "rtl" : "ltr";
  const html = `<!doctype html><html lang="${lang}" dir="${dir}"><body style="font-family:sans-serif;line-height:1.7">${lines
    .map((l) => (l === link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : l ? `<p>${escapeHtml(l)}</p>` : ""))
    .join("")}</body></html>`;
  return { subject, text: lines.join("\n"), html };
}
