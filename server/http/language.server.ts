/**
 * The reader's language on the server: from the language cookie, then Accept-Language (negotiator), through
 * the rules of language.ts. Apart from it so that neither library reaches the browser bundle.
 */
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import Negotiator from "negotiator";
import { detectLanguage, LANGUAGE_COOKIE, type Language } from "#domain/language.ts";

/**
 * The language the server renders a request in: the cookie's choice, then Accept-Language in the browser's
 * order of preference (negotiator honours q values and keeps header order for ties).
 */
export function languageOfRequest(request: Request): Language {
  return languageOfHeaders(request.headers.get("Cookie"), request.headers.get("Accept-Language"));
}

/** The same choice from the raw header values (Node's IncomingMessage headers: the page cache's key, without a Request). */
export function languageOfHeaders(cookie: string | null | undefined, accept: string | null | undefined): Language {
  return detectLanguage({
    stored: cookie ? parseCookie(cookie)[LANGUAGE_COOKIE] : undefined,
    browser: accept ? new Negotiator({ headers: { "accept-language": accept } }).languages() : [],
  });
}

/** The Set-Cookie value that keeps the reader's choice for a year. */
export function languageCookie(lang: Language, secure = false): string {
  return serializeCookie(LANGUAGE_COOKIE, lang, { path: "/", maxAge: 31_536_000, sameSite: "lax", secure });
}
