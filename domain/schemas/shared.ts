/**
 * Shared validation pieces (public-site.md §5, "Shared patterns"), for every form of the site. Each form
 * builds its one schema from these, and the same schema runs on the server (authoritative) and in the
 * browser (instant feedback).
 *
 * Messages are translation keys, not texts: the page shows `t(message)`, so the spec's Arabic wording lives
 * once, in domain/locales. Built on `zod/mini` because these schemas reach the browser: it is about a fifth of
 * the size of the classic API for the same checks (docs/decisions/0011-zod-mini-in-the-browser.md).
 */
import { z } from "zod/mini";
import { sanitizeText } from "#domain/sanitize.ts";

// ---- Patterns ----

/** One at-sign, no spaces, a dot in the domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
/** Lowercase letters and digits with single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Digits, spaces, hyphens, plus, parentheses, and at least one digit. */
export const PHONE_PATTERN = /^(?=.*\d)[\d +()-]+$/;
/** Must start with http or https. */
export const URL_PATTERN = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
/** Letters, digits, hyphen, underscore, dot. */
export const FILENAME_PATTERN = /^[A-Za-z0-9._-]+$/;
/** UUID versions 1 to 5. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** Arabic letters, Arabic and Latin digits, spaces and punctuation. */
export const ARABIC_TEXT_PATTERN = /^[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\s\d.,!?؟،؛:()"'«»-]+$/;
/** Latin letters, digits, spaces and punctuation. */
export const ENGLISH_TEXT_PATTERN = /^[A-Za-z\s\d.,!?;:()"'-]+$/;

/** RFC 5321: an address longer than this cannot be delivered. */
export const EMAIL_MAX = 254;

// ---- Messages ----

export type FieldMessages = { required?: string; invalid?: string; tooLong?: string };

/** Generic keys (domain/locales, `validation`); a form passes its own keys where the spec words them. */
export const DEFAULT_MESSAGES = {
  required: "validation.required",
  tooLong: "validation.tooLong",
  invalidEmail: "validation.invalidEmail",
  invalidPhone: "validation.invalidPhone",
  invalidUrl: "validation.invalidUrl",
  invalidSlug: "validation.invalidSlug",
} as const;

// ---- Field schemas ----

/** Anything a form hands over (a string, null for a missing field, a File) becomes sanitised text. */
const sanitized = (options: { multiline?: boolean; lowercase?: boolean } = {}) =>
  z.transform((value: unknown) => {
    const text = sanitizeText(value, { multiline: options.multiline });
    return options.lowercase ? text.toLowerCase() : text;
  });

/** Required free text, sanitised, at most `max` characters. */
export function TextSchema({ max, multiline = false, ...m }: FieldMessages & { max: number; multiline?: boolean }) {
  return z.pipe(
    sanitized({ multiline }),
    z.string().check(z.minLength(1, m.required ?? DEFAULT_MESSAGES.required), z.maxLength(max, m.tooLong ?? DEFAULT_MESSAGES.tooLong)),
  );
}

/** A required e-mail address, sanitised and lower-cased. */
export function EmailSchema(m: FieldMessages = {}) {
  return z.pipe(
    sanitized({ lowercase: true }),
    z
      .string()
      .check(
        z.minLength(1, m.required ?? DEFAULT_MESSAGES.required),
        z.maxLength(EMAIL_MAX, m.tooLong ?? DEFAULT_MESSAGES.tooLong),
        z.regex(EMAIL_PATTERN, m.invalid ?? DEFAULT_MESSAGES.invalidEmail),
      ),
  );
}

/** A required phone number. */
export function PhoneSchema(m: FieldMessages = {}) {
  return z.pipe(
    sanitized(),
    z
      .string()
      .check(
        z.minLength(1, m.required ?? DEFAULT_MESSAGES.required),
        z.maxLength(32, m.tooLong ?? DEFAULT_MESSAGES.tooLong),
        z.regex(PHONE_PATTERN, m.invalid ?? DEFAULT_MESSAGES.invalidPhone),
      ),
  );
}

/** A required http(s) URL. */
export function UrlSchema(m: FieldMessages = {}) {
  return z.pipe(
    sanitized(),
    z
      .string()
      .check(
        z.minLength(1, m.required ?? DEFAULT_MESSAGES.required),
        z.maxLength(2048, m.tooLong ?? DEFAULT_MESSAGES.tooLong),
        z.regex(URL_PATTERN, m.invalid ?? DEFAULT_MESSAGES.invalidUrl),
      ),
  );
}

/** A required page slug, taken as typed: "The-Caravan" is refused rather than silently changed. */
export function SlugSchema(m: FieldMessages = {}) {
  return z.pipe(
    sanitized(),
    z
      .string()
      .check(
        z.minLength(1, m.required ?? DEFAULT_MESSAGES.required),
        z.maxLength(200, m.tooLong ?? DEFAULT_MESSAGES.tooLong),
        z.regex(SLUG_PATTERN, m.invalid ?? DEFAULT_MESSAGES.invalidSlug),
      ),
  );
}

// ---- Reading results ----

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first message of each field, keyed by field name: what a form shows under each input. */
export function fieldErrorsOf<K extends string>(error: z.core.$ZodError): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "") as K;
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

/** True when at least one field was left empty (the spec's "required fields" case), by issue code. */
export function hasMissingField(error: z.core.$ZodError): boolean {
  return error.issues.some((issue) => issue.code === "too_small" && "minimum" in issue && Number(issue.minimum) <= 1);
}
