/**
 * The reader's night reading and text size (issue 46, docs/decisions/0149-night-reading-and-text-size.md): a theme
 * (the system's, light or dark) and one of three text sizes, kept in one cookie, `theme.size`, that the server reads
 * to render them on <html> in the first byte and app/enhance/reading.js writes in the same form. No cookie is the
 * default (the system's theme, the normal size): the page every reader without a choice shares in every cache.
 */
export const READING_COOKIE = "sahara_reading";
export const THEMES = ["system", "light", "dark"] as const;
export const TEXT_SIZES = ["normal", "large", "larger"] as const;
export type Theme = (typeof THEMES)[number];
export type TextSize = (typeof TEXT_SIZES)[number];
export type ReadingPreferences = { theme: Theme; textSize: TextSize };
/** The footer form's id (app/components/layout/reading-preferences.tsx): a post without JavaScript comes back to it. */
export const READING_FORM_ID = "reading-preferences";
export const DEFAULT_READING: ReadingPreferences = { theme: "system", textSize: "normal" };

export const isTheme = (value: unknown): value is Theme => typeof value === "string" && (THEMES as readonly string[]).includes(value);
export const isTextSize = (value: unknown): value is TextSize => typeof value === "string" && (TEXT_SIZES as readonly string[]).includes(value);

/** A cookie's value read leniently: a part that names nothing known is the default's (a stale or forged value is ignored). */
export function parseReadingValue(value: unknown): ReadingPreferences {
  if (typeof value !== "string" || value.length > 20) return DEFAULT_READING;
  const [theme, textSize] = value.split(".");
  return { theme: isTheme(theme) ? theme : "system", textSize: isTextSize(textSize) ? textSize : "normal" };
}

/** The cookie's value of a choice; null for the default, which is kept by having no cookie at all. */
export function readingValue({ theme, textSize }: ReadingPreferences): string | null {
  return theme === "system" && textSize === "normal" ? null : `${theme}.${textSize}`;
}

/** The attributes of <html> that carry a choice to the stylesheet (app/app.css); the default carries none. */
export function readingAttributes({ theme, textSize }: ReadingPreferences): { "data-theme"?: "light" | "dark"; "data-text-size"?: "large" | "larger" } {
  return {
    ...(theme === "system" ? {} : { "data-theme": theme }),
    ...(textSize === "normal" ? {} : { "data-text-size": textSize }),
  };
}
