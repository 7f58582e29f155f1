/**
 * The newsletter's sends (issue 32, decision 0126), the words both sides use: kinds, periods, a subscriber's
 * frequency, limits, and the two forms' schemas (the back-office's composer, the reader's preferences page).
 * Messages are translation keys (newsletterAdmin.errors.*, newsletterPage.preferences.errors.*).
 */
import { z } from "zod/mini";
import { CONTENT_TYPES, type ContentType } from "#domain/content-types/index.ts";
import { LANGUAGES } from "#domain/language.ts";
import { TextSchema } from "#domain/schemas/shared.ts";

export const NEWSLETTER_SEND_KINDS = ["digest", "item"] as const;
export type NewsletterSendKind = (typeof NEWSLETTER_SEND_KINDS)[number];

export const DIGEST_PERIODS = ["daily", "weekly"] as const;
export type DigestPeriod = (typeof DIGEST_PERIODS)[number];

/** What a subscriber receives: the daily digest, the weekly one, or nothing (one-off sends go to daily and weekly). */
export const NEWSLETTER_FREQUENCIES = ["daily", "weekly", "none"] as const;
export type NewsletterFrequency = (typeof NEWSLETTER_FREQUENCIES)[number];

export const SEND_STATES = ["queued", "sending", "sent", "failed", "cancelled"] as const;

export const NEWSLETTER_LIMITS = { subject: 200, intro: 2000, items: 30, digestItems: 8, summary: 300 } as const;

export type NewsletterItemRef = { type: ContentType; id: number };

/** "news:12" → { type: "news", id: 12 }; null when it is not one. */
export function parseItemRef(value: unknown): NewsletterItemRef | null {
  if (typeof value !== "string") return null;
  const match = /^([a-z]+):([1-9]\d{0,9})$/.exec(value);
  if (!match || !(CONTENT_TYPES as readonly string[]).includes(match[1]) || Number(match[2]) > 2_147_483_647) return null;
  return { type: match[1] as ContentType, id: Number(match[2]) };
}

export const itemRefKey = (ref: NewsletterItemRef) => `${ref.type}:${ref.id}`;

const enumOf = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.string().check(z.refine((v) => (values as readonly string[]).includes(v), message)) as unknown as z.ZodMiniType<T[number], unknown>;

/** The composer's form: kind, period (digests), language, subject, intro and the ordered items. */
export const NewsletterSendSchema = z.object({
  kind: enumOf(NEWSLETTER_SEND_KINDS, "newsletterAdmin.errors.kind"),
  period: z.optional(enumOf(DIGEST_PERIODS, "newsletterAdmin.errors.period")),
  language: enumOf(LANGUAGES, "newsletterAdmin.errors.language"),
  subject: TextSchema({ max: NEWSLETTER_LIMITS.subject, required: "newsletterAdmin.errors.subjectRequired", tooLong: "newsletterAdmin.errors.subjectTooLong" }),
  intro: z.optional(
    TextSchema({
      max: NEWSLETTER_LIMITS.intro,
      multiline: true,
      required: "newsletterAdmin.errors.introTooLong",
      tooLong: "newsletterAdmin.errors.introTooLong",
    }),
  ),
  items: z.array(z.string()).check(
    z.minLength(1, "newsletterAdmin.errors.noItems"),
    z.maxLength(NEWSLETTER_LIMITS.items, "newsletterAdmin.errors.tooManyItems"),
    z.refine((items) => items.every((i) => parseItemRef(i) !== null), "newsletterAdmin.errors.itemUnavailable"),
    z.refine((items) => new Set(items).size === items.length, "newsletterAdmin.errors.duplicateItem"),
  ),
});
export type NewsletterSendForm = z.output<typeof NewsletterSendSchema>;

/** The preferences page's form. */
export const NewsletterPreferencesSchema = z.object({
  language: enumOf(LANGUAGES, "newsletterPage.preferences.errors.language"),
  frequency: enumOf(NEWSLETTER_FREQUENCIES, "newsletterPage.preferences.errors.frequency"),
});
