/**
 * Counted strings: the one place that chooses a plural form and writes the number in it, for the pages, the
 * back-office and the e-mails alike (docs/decisions/0109-plural-forms.md).
 *
 * A counted string is stored as one key per CLDR plural category of the language, i18next's JSON v4 naming:
 * `detail.views_zero`, `_one`, `_two`, `_few`, `_many`, `_other` in Arabic, `_one`, `_many`, `_other` in
 * French, `_one`, `_other` in English — exactly the categories `Intl.PluralRules` gives (domain/locales/locales.test.ts
 * holds every file to that). The category of a number is `Intl.PluralRules`' too, so no rule is written here.
 * Components read it through `useCount()` (app/lib/i18n.ts), server code through `translateCount()`
 * (server/http/i18n.server.ts); none asks i18next, which is meant to leave the browser.
 */
import type { Language } from "./language.ts";
import { formatNumber } from "./format.ts";

export type PluralCategory = Intl.LDMLPluralRule;
/** Every category CLDR knows, in its usual order. */
export const PLURAL_CATEGORIES: readonly PluralCategory[] = ["zero", "one", "two", "few", "many", "other"];

const rules = new Map<Language, Intl.PluralRules>();

function rulesOf(lang: Language): Intl.PluralRules {
  let r = rules.get(lang);
  if (!r) rules.set(lang, (r = new Intl.PluralRules(lang)));
  return r;
}

/** The plural category of `count` in `lang` (Arabic 0 zero, 1 one, 2 two, 3–10 few, 11–99 many, 100 other). */
export function pluralCategory(lang: Language, count: number): PluralCategory {
  return rulesOf(lang).select(count);
}

/** The categories `lang` distinguishes: the suffixes each counted key must have in that language's file. */
export function pluralCategoriesOf(lang: Language): PluralCategory[] {
  const own = new Set(rulesOf(lang).resolvedOptions().pluralCategories);
  return PLURAL_CATEGORIES.filter((c) => own.has(c));
}

// Numbers are domain/format.ts's (one formatter, with the DIGITS setting); kept importable from here.
export { formatNumber, numberLocale } from "./format.ts";

/** The `_category` suffix of a counted key's form, or null for a key that is not one. */
export function pluralSuffixOf(key: string): PluralCategory | null {
  const m = /_(zero|one|two|few|many|other)$/.exec(key);
  return m ? (m[1] as PluralCategory) : null;
}

export type Strings = Readonly<Record<string, unknown>>;

function lookup(strings: Strings | undefined, key: string): string | undefined {
  let node: unknown = strings;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string" ? node : undefined;
}

/** Fills `{{name}}` placeholders; numbers are written with formatNumber, a missing value leaves nothing. */
export function interpolate(template: string, lang: Language, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    return typeof value === "number" ? formatNumber(lang, value) : (value ?? "");
  });
}

/**
 * The counted string `key` for `count` from a language's strings: the form of count's category (falling
 * back to `_other`, then to a plain `key`), with `{{count}}` and the other `values` filled in. A key that
 * is nowhere comes back as the key, as i18next does, so a missing string shows rather than breaks the page.
 */
export function formatCount(
  strings: Strings | undefined,
  lang: Language,
  key: string,
  count: number,
  values: Readonly<Record<string, string | number>> = {},
): string {
  const n = Number.isFinite(count) ? count : 0;
  const form = lookup(strings, `${key}_${pluralCategory(lang, n)}`) ?? lookup(strings, `${key}_other`) ?? lookup(strings, key);
  return form === undefined ? key : interpolate(form, lang, { ...values, count: n });
}
