/**
 * Query-string values, as zod pieces: each endpoint builds its one schema from these (server/http/api.server.ts reads
 * a request with it), and the listing pages read their page number through the same piece, so "page=2"
 * means the same thing everywhere. A piece's message completes "The <name> parameter …".
 */
import { data } from "react-router";
import { z } from "zod/mini";

/** A whole number written in digits only ("12", not "1e1", " 12" or "+12"), from `min` to `max`. */
export function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.pipe(
    z.string(message).check(
      z.regex(/^\d{1,7}$/, message),
      z.refine((v) => Number(v) >= min && Number(v) <= max, message),
    ),
    z.transform(Number),
  );
}

/** A whole number from `min` to `max`, `fallback` when the parameter is absent or empty. */
export function wholeNumberOr(fallback: number, min: number, max: number) {
  return z.pipe(
    z.transform((v: unknown) => (v === undefined || v === null || v === "" ? String(fallback) : v)),
    wholeNumber(min, max),
  );
}

/** A 1-based page number, 1 when absent. */
export const pageNumber = (max: number) => wholeNumberOr(1, 1, max);

/** One of a fixed list of values, or undefined when absent. The bad value is never echoed back. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.optional(z.enum(values, `must be one of: ${values.join(", ")}`));
}

/**
 * The page number of a listing page (`?page=N`, 1 when absent). Anything else answers 400 with the API's
 * error shape, so a crawler following a broken link gets a clear answer rather than page 1 again.
 */
export function pageParam(url: URL, name = "page", max = 500): number {
  const parsed = z.safeParse(pageNumber(max), url.searchParams.get(name));
  if (parsed.success) return parsed.data;
  throw data({ error: { code: "INVALID_PAGE", message: `The ${name} parameter ${parsed.error.issues[0].message}.` } }, { status: 400 });
}
