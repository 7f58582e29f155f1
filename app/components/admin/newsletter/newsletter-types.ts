import type { FormAnswer } from "#domain/form-answer.ts";
import type { Language } from "#domain/language.ts";
import type { DigestPeriod, NewsletterItemRef, NewsletterSendKind } from "#domain/newsletter-sends.ts";

/** What the screen composes, from its address: a digest of a period or one item, in one language. */
export type NewsletterView = { kind: NewsletterSendKind; period: DigestPeriod; language: Language; item: NewsletterItemRef | null };

export type NewsletterIntent = "preview" | "send" | "cancel" | "resume";

/** The newsletter page's action answer (app/routes/admin/newsletter.tsx). */
export type NewsletterAnswer = FormAnswer<string, string> & {
  intent?: NewsletterIntent;
  preview?: { subject: string; html: string; language: Language };
  sendId?: number;
  total?: number;
};

/** An item of the composed mail, as the composer lists it. */
export type ComposedItem = { type: string; id: number; title: string; url: string; priority?: string; reads?: number; publishDate: string };

export const inputClass =
  "w-full rounded-md border border-sand-300 bg-white px-3 py-2 focus:border-desert-500 focus:ring-2 focus:ring-desert-500/30 focus:outline-none";
export const smallButton =
  "inline-flex h-9 items-center rounded-md border border-sand-300 bg-white px-3 text-sm font-bold hover:bg-sand-100 disabled:opacity-40";
export const primaryButton = "inline-flex h-11 items-center rounded-md bg-desert-600 px-5 font-bold text-white hover:bg-desert-700 disabled:opacity-50";
export const LANGUAGE_NAMES: Record<Language, string> = { ar: "العربية", fr: "Français", en: "English" };
