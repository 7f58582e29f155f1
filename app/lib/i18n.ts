import i18next, { type FormatterModule, type i18n as I18n, type Resource } from "i18next";
import { useCallback, useContext, useMemo } from "react";
import { useRouteLoaderData } from "react-router";
import { getI18n, I18nContext, initReactI18next, useTranslation as useReactTranslation } from "react-i18next";
import { DEFAULT_LANGUAGE, type Language } from "#domain/language.ts";
import { formatCount } from "#domain/plural.ts";
import { formatNumber, localizeDigits } from "#domain/format.ts";
import { translationsOf, type RootLoaderData, type Translations } from "./root-data.ts";

export type { Translations } from "./root-data.ts";

/**
 * Numbers interpolated into any string (`t("x", { n: 5 })`) in the language's digits (DIGITS, domain/format.ts), so
 * no call site has to remember it. A whole number keeps its plain form (a year, an id, a page: no grouping added);
 * a fraction gets the language's decimal sign. Call sites that want grouping pass formatNumber()'s text.
 */
const NUMBERS: FormatterModule = {
  type: "formatter",
  init: () => {},
  add: () => {},
  addCached: () => {},
  format: (value: unknown, _format: string | undefined, lng: string | undefined) => {
    // Anything else as it came (i18next tells a missing value by its undefined).
    if (typeof value !== "number" || !Number.isFinite(value)) return value as string;
    const lang = (lng ?? DEFAULT_LANGUAGE) as Language;
    return Number.isInteger(value) ? localizeDigits(String(value), lang) : formatNumber(lang, value);
  },
};

/**
 * An i18next instance holding only the language being shown: the server renders with it and the root
 * loader hands the same strings to the browser, so no translation file is fetched before hydration.
 */
export function createI18n(lang: Language, translations: Translations): I18n {
  const instance = i18next.createInstance();
  const resources: Resource = { [lang]: { common: translations } };
  void instance
    .use(initReactI18next)
    .use(NUMBERS)
    .init({
      lng: lang,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: ["ar", "fr", "en"],
      ns: ["common"],
      defaultNS: "common",
      resources,
      initAsync: false,
      // alwaysFormat: every value goes through NUMBERS, not only `{{n, format}}` ones (the strings name no format).
      interpolation: { escapeValue: false, alwaysFormat: true },
      react: { useSuspense: false },
    });
  return instance;
}

/** Switches an existing instance (the browser's) to another language whose strings just arrived. */
export function switchI18n(instance: I18n, lang: Language, translations: Translations) {
  if (!instance.hasResourceBundle(lang, "common")) instance.addResourceBundle(lang, "common", translations, true, true);
  if (instance.language !== lang) void instance.changeLanguage(lang);
}

/**
 * The language being shown, for components that need nothing else from i18next: cheaper than
 * useTranslation(), which builds a translator per call (it showed in server-render profiles for card lists).
 */
export function useLanguage(): Language {
  return ((useContext(I18nContext) as { i18n?: I18n } | undefined)?.i18n?.language ?? DEFAULT_LANGUAGE) as Language;
}

/**
 * `text(key)`: a string of the language shown, without useTranslation()'s per-call wrapper: for components a page
 * renders once per card (the home page's tiles, bylines), where that wrapper showed in server-render profiles.
 */
export function useText(): (key: string) => string {
  const i18n = (useContext(I18nContext) as { i18n?: I18n } | undefined)?.i18n;
  return useCallback((key: string) => (i18n ? translatorOf(i18n)(key) : key), [i18n]);
}

/**
 * The strings of a language that i18next would give back as they are: dotted key → text, for every text with no
 * interpolation (`{{…}}`) and no nesting (`$t(…)`), under keys i18next reads as written (no `:` of a namespace).
 */
const plainStrings = new WeakMap<object, Map<string, string>>();

function plainStringsOf(bundle: object): Map<string, string> {
  let strings = plainStrings.get(bundle);
  if (strings) return strings;
  strings = new Map();
  const walk = (node: object, prefix: string) => {
    for (const [name, value] of Object.entries(node)) {
      if (name.includes(".") || name.includes(":")) continue;
      const key = prefix + name;
      if (typeof value === "string") {
        if (!value.includes("{{") && !value.includes("$t(")) strings.set(key, value);
      } else if (value && typeof value === "object") walk(value as object, `${key}.`);
    }
  };
  walk(bundle, "");
  plainStrings.set(bundle, strings);
  return strings;
}

type Translator = (key: string, options?: Record<string, unknown>) => string;
const translators = new WeakMap<I18n, Translator>();

/**
 * i18next's `t` for a key and no options is a lookup: answered from plainStringsOf, in the instance's language at
 * the time of the call. Anything else (values to interpolate, a count, a missing key and its fallback) is i18next's.
 */
function translatorOf(i18n: I18n): Translator {
  let translator = translators.get(i18n);
  if (!translator) {
    translator = (key, options) => {
      if (options === undefined) {
        const bundle = i18n.getDataByLanguage(i18n.language)?.common as object | undefined;
        const text = bundle && plainStringsOf(bundle).get(key);
        if (text !== undefined) return text;
      }
      return i18n.t(key, options);
    };
    translators.set(i18n, translator);
  }
  return translator;
}

/**
 * The server's useTranslation: the context's instance and translatorOf. react-i18next's builds a translator
 * (spreading all of i18next's options at every call of it) and a copy of the instance for every component, which
 * was a tenth of a page's render in the profiles (issue 47); on the server nothing changes language during a
 * render, so nothing needs what those are for.
 */
function useServerTranslation() {
  const i18n = (useContext(I18nContext) as { i18n?: I18n } | undefined)?.i18n ?? getI18n();
  return useMemo(() => {
    const t: Translator = i18n ? translatorOf(i18n) : (key) => key;
    const ready = Boolean(i18n?.isInitialized);
    return Object.assign([t, i18n, ready] as const, { t, i18n, ready });
  }, [i18n]);
}

/**
 * `const { t, i18n } = useTranslation()`: the strings of the language shown. In the browser it is react-i18next's,
 * which renders a component again when the language changes; on the server, useServerTranslation. Chosen once
 * per environment, so every component calls the same hooks on every render of that side.
 */
export const useTranslation = (typeof document === "undefined" ? useServerTranslation : useReactTranslation) as unknown as () => ReturnType<
  typeof useReactTranslation<"common">
>;

/**
 * `count(key, n, values?)`: the counted string `key` for n in the language shown (domain/plural.ts). It reads
 * the strings the root loader sent, not i18next, so it is the same function the server's e-mails use and it
 * outlives i18next in the browser.
 */
export function useCount(): (key: string, count: number, values?: Readonly<Record<string, string | number>>) => string {
  const root = useRouteLoaderData<RootLoaderData>("root");
  const lang = root?.lang ?? DEFAULT_LANGUAGE;
  const strings = translationsOf(root);
  return useCallback((key, count, values) => formatCount(strings, lang, key, count, values), [strings, lang]);
}
