import type { Route } from "./+types/admin-calendar";
import { z } from "zod/mini";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";
import { CALENDAR_MAX_RANGE_DAYS, calendarRange, dayOf, instantOf } from "#domain/calendar.ts";
import { getDb } from "#server/db/client.server.ts";
import { listCalendarItems } from "#server/content/calendar.server.ts";
import { requirePermission, userCan } from "#server/auth/session.server.ts";
import { handleApi, methodNotAllowed, parseQuery, privateJson } from "#server/http/api.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";

/**
 * GET /api/admin/calendar?from=ISO&to=ISO — the scheduled and published items (never drafts) of the types the
 * account may write whose publish date is in [from, to), in time order (docs/api.md, "The schedule"). A
 * date alone (2026-11-23), or a date-time without a zone, is Nouakchott's time. Neither parameter: this week
 * (Monday to Sunday, Nouakchott). One without the other, a value that is not a date, `to` not after `from`,
 * or more than 62 days: 400 INVALID_QUERY. Moving an item is PATCH /api/admin/{type}/{id} with `publish_date`.
 */
const Query = z.strictObject({ from: z.optional(z.string()), to: z.optional(z.string()) });

/** A date, or a date-time with or without seconds, fraction and zone. */
const ISO = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;
const EXAMPLE = "such as 2026-11-23 or 2026-11-23T00:00:00Z";

function instant(name: "from" | "to", value: string): Date {
  const zoned = /(?:Z|[+-]\d{2}:\d{2})$/.test(value) && value.includes("T");
  const at = !ISO.test(value) ? null : zoned ? new Date(value) : instantOf(value.replace(/\.\d+$/, ""));
  if (!at || Number.isNaN(at.getTime())) {
    const message = `The ${name} parameter must be an ISO 8601 date or date-time, ${EXAMPLE}.`;
    throw new BadRequestError("INVALID_QUERY", message, { fields: { [name]: message } });
  }
  return at;
}

function rangeOf(request: Request): { from: Date; to: Date } {
  const { from, to } = parseQuery(request, Query);
  if (from === undefined && to === undefined) return calendarRange("week", dayOf(new Date()));
  if (from === undefined || to === undefined) {
    const missing = from === undefined ? "from" : "to";
    const message = `The ${missing} parameter is missing: give both from and to (${EXAMPLE}), or neither for this week.`;
    throw new BadRequestError("INVALID_QUERY", message, { fields: { [missing]: message } });
  }
  const range = { from: instant("from", from), to: instant("to", to) };
  if (range.to <= range.from) {
    const message = "The to parameter must be later than from.";
    throw new BadRequestError("INVALID_QUERY", message, { fields: { to: message } });
  }
  if (range.to.getTime() - range.from.getTime() > CALENDAR_MAX_RANGE_DAYS * 24 * 3600_000) {
    const message = `The range from from to to may cover at most ${CALENDAR_MAX_RANGE_DAYS} days.`;
    throw new BadRequestError("INVALID_QUERY", message, { fields: { to: message } });
  }
  return range;
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/calendar", async () => {
    const user = await requirePermission(request, "content.write", { mode: "api" });
    const { from, to } = rangeOf(request);
    const types = ALL_CONTENT_TYPES.filter((d) => userCan(user, d.permissions.write)).map((d) => d.type);
    // The newsroom's API speaks Arabic (back-office.md §1): the category's Arabic name.
    const { items, truncated } = await listCalendarItems(await getDb(), { from, to, types, lang: "ar" });
    return privateJson({ from: from.toISOString(), to: to.toISOString(), items, truncated });
  });
}

/** Any other method: 405, past the same guard. */
export const action = methodNotAllowed(["GET"], (request) => requirePermission(request, "content.write", { mode: "api" }));
