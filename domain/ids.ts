/**
 * Row ids and the foreign keys that name them, as clients send them (route params, query strings, form fields,
 * JSON), checked against their column's range before any query (issue 39, decision 0136). Every id column a client
 * can name is PostgreSQL `integer` (serial): 1..2147483647. A number past it reached PostgreSQL, which refused it
 * with "integer out of range", a 500; a value below it names no row. The one bigint id (a newsletter delivery's)
 * is never taken from a client.
 */
import { z } from "zod/mini";

/** The largest `integer` (and serial) value. */
export const ID_MAX = 2_147_483_647;

/** Decimal digits only: no sign, no exponent, no fraction, no hex ("1e3", "1.0", "0x10", "+1", " 1" name no row). */
const DIGITS = /^\d{1,10}$/;

/**
 * An id as a JSON number or as the decimal text of a URL or form: 1..ID_MAX, or null for anything else (0,
 * negatives, fractions, 1e309, text that is not digits, digits past the column's range).
 */
export function parseId(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 && value <= ID_MAX ? value : null;
  if (typeof value !== "string" || !DIGITS.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= ID_MAX ? id : null;
}

/** An id that arrived as a JSON number (a JSON API that takes numbers only, as the bulk actions' `ids`). */
export function isIdNumber(value: unknown): value is number {
  return typeof value === "number" && parseId(value) !== null;
}

/**
 * The same rule as a zod schema: a JSON number or decimal text, answered as a number; `message` (a translation
 * key) for anything else. Text is trimmed first, as every other form field is.
 */
export function idSchema(message: string) {
  return z.pipe(
    z.transform((value: unknown) => parseId(typeof value === "string" ? value.trim() : value)),
    z.number(message),
  );
}
