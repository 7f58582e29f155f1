/**
 * The language a request is answered in. A reading page's or feed's address decides it alone (issue 42,
 * domain/addresses.ts): `/fr/…` French, `/en/…` English, anything else Arabic. The back-office, the APIs and the
 * other shared addresses follow the reader's stored choice (the language cookie), then Accept-Language
 * (negotiator), through the rules of language.ts. Apart from them so that neither library reaches the browser bundle.
 */
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import Negotiator from "negotiator";
import { detectLanguage, LANGUAGE_COOKIE, type Language } from "#domain/language.ts";
import { isAddressedByLanguage, languageOfAddress } from "#domain/addresses.ts";

/**
 * The language the server renders a request in: its address's when the address names one (every reading page),
 * else the cookie's choice, then Accept-Language in the browser's order of preference (negotiator honours q values
 * and keeps header order for ties).
 */
export function languageOfRequest(request: Request): Language {
  return languageOfTarget(new URL(request.url).pathname, request.headers.get("Cookie"), request.headers.get("Accept-Language"));
}

/** The same choice from a path and the raw header values (Node's IncomingMessage: the page cache's key, without a Request). */
export function languageOfTarget(pathname: string, cookie: string | null | undefined, accept: string | null | undefined): Language {
  if (isAddressedByLanguage(pathname)) return languageOfAddress(pathname);
  return storedLanguage(cookie, accept);
}

/** The reader's stored choice (the language cookie), then Accept-Language: the back-office's and the APIs' language. */
export function storedLanguage(cookie: string | null | undefined, accept: string | null | undefined): Language {
  return detectLanguage({
    stored: cookie ? parseCookie(cookie)[LANGUAGE_COOKIE] : undefined,
    browser: accept ? new Negotiator({ headers: { "accept-language": accept } }).languages() : [],
  });
}

/** The Set-Cookie value that keeps the reader's choice for a year. */
export function languageCookie(lang: Language, secure = false): string {
  return serializeCookie(LANGUAGE_COOKIE, lang, { path: "/", maxAge: 31_536_000, sameSite: "lax", secure });
}
