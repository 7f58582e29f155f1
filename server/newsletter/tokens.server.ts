/**
 * The subscriber's own links (decision 0126): every newsletter mail carries one-click unsubscribe (RFC 8058:
 * List-Unsubscribe and List-Unsubscribe-Post) and a preferences link. Their token is per subscriber: an HMAC
 * of the subscriber's id under a key derived from the server's secret, so no token is stored; the row keeps
 * its SHA-256 to find the subscriber by.
 */
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { newsletterDeliveries, newsletterSubscribers } from "#server/db/schema.server.ts";
import { getConfig, type Config } from "#server/config.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { authSecret } from "#server/ops/secrets.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";
import { LANGUAGES, type Language } from "#domain/language.ts";
import type { NewsletterFrequency } from "#domain/newsletter-sends.ts";

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
export async function storeTokenHashes(db: Database, subscribers: { id: number; manageTokenHash: string | null }[], config: Config) {
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
