/**
 * The reading preferences of a request (domain/reading-preferences.ts): parsed from its Cookie header, and the
 * Set-Cookie that keeps a choice. Beside language.server.ts, so that the cookie library stays out of the browser.
 */
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import { DEFAULT_READING, parseReadingValue, READING_COOKIE, readingValue, type ReadingPreferences } from "#domain/reading-preferences.ts";

/** The choice a Cookie header carries (the default without one, or with a value that names nothing known). */
export function readingPreferencesOf(cookie: string | string[] | null | undefined): ReadingPreferences {
  if (!cookie) return DEFAULT_READING;
  const header = Array.isArray(cookie) ? cookie.join("; ") : cookie;
  if (!header.includes(READING_COOKIE)) return DEFAULT_READING;
  return parseReadingValue(parseCookie(header)[READING_COOKIE]);
}

/**
 * The canonical value of a request's choice, or null for the default: what a cached page varies by
 * (server/http/page-cache.server.ts). A forged value maps onto one of the nine real ones, never a new copy.
 */
export function readingVariantOf(cookie: string | string[] | null | undefined): string | null {
  return readingValue(readingPreferencesOf(cookie));
}

/** The Set-Cookie that keeps a choice for a year; the default removes the cookie, so the reader shares the common page again. */
export function readingCookie(preferences: ReadingPreferences, secure = false): string {
  const value = readingValue(preferences);
  return serializeCookie(READING_COOKIE, value ?? "", { path: "/", maxAge: value ? 31_536_000 : 0, sameSite: "lax", secure });
}
