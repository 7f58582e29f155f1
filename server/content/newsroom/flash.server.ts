/**
 * The newsroom's one-time messages across a redirect (post, redirect, get): a save or a delete answers with
 * a redirect to the list, and the list shows what happened once — as a toast with JavaScript, as a notice
 * without. Kept in a short-lived cookie rather than the query string, so a reload or a shared link does not
 * repeat it. The cookie names a translation key and nothing else; it is checked when read.
 */
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import { CONTENT_TYPES, type ContentType } from "#domain/content-types/index.ts";
import { getConfig } from "#server/config.server.ts";

const COOKIE = "sahara.flash";
const KINDS = ["created", "updated", "deleted", "restored"] as const;

export type NewsroomFlash = {
  kind: (typeof KINDS)[number];
  type: ContentType;
  /** The item was saved without its image: why (a translation key of the file checker, and its values). */
  imageFailed?: { key: string; values: Record<string, string | number> };
  /** Published (or scheduled) with this many pictures that have no alt text (issue 39): a warning, not a failure. */
  missingAlt?: number;
};

const cookieOf = (value: string, maxAge: number) =>
  serializeCookie(COOKIE, value, { path: "/admin", maxAge, httpOnly: true, sameSite: "lax", secure: getConfig().publicUrl.startsWith("https://") });

export function flashCookie(flash: NewsroomFlash): string {
  return cookieOf(JSON.stringify(flash), 60);
}

// desk.upload.*: a refused image's complete message (domain/upload-types.ts, issue 46).
const isKey = (value: unknown): value is string => typeof value === "string" && /^(?:newsroom|desk)\.[\w.]{1,80}$/.test(value);

function parse(raw: string): NewsroomFlash | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<NewsroomFlash>;
    if (!KINDS.includes(value.kind!) || !CONTENT_TYPES.includes(value.type!)) return null;
    const flash: NewsroomFlash = { kind: value.kind!, type: value.type! };
    const failed = value.imageFailed;
    if (failed && isKey(failed.key)) {
      const values: Record<string, string | number> = {};
      for (const [k, v] of Object.entries(failed.values ?? {})) if (typeof v === "number" || (typeof v === "string" && v.length < 100)) values[k] = v;
      flash.imageFailed = { key: failed.key, values };
    }
    if (typeof value.missingAlt === "number" && Number.isInteger(value.missingAlt) && value.missingAlt > 0 && value.missingAlt < 1000)
      flash.missingAlt = value.missingAlt;
    return flash;
  } catch {
    return null;
  }
}

/** The flash a request carries, and the header that spends it. */
export function takeFlash(request: Request): { flash: NewsroomFlash | null; headers: Record<string, string> } {
  const raw = parseCookie(request.headers.get("Cookie") ?? "")[COOKIE];
  if (raw === undefined) return { flash: null, headers: {} };
  return { flash: parse(raw), headers: { "Set-Cookie": cookieOf("", 0) } };
}
