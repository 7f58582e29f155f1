import type { Route } from "./+types/admin-analytics-csv";
import { z } from "zod/mini";
import { oneOf } from "#domain/query.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { analyticsCsv, CSV_REPORTS, isPeriod, parseRange, rangeOf } from "#server/analytics/queries.server.ts";
import { handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";

/**
 * GET /api/admin/analytics.csv?report=&period=today|7d|30d (or from=&to=) — one table of /admin/analytics as a CSV
 * file (issue 45; docs/api.md, "Audience figures"): `report` is items (default), sections, authors, sources, langs,
 * devices, timeline, searches, empty-searches, newsletter or push; at most 1,000 rows. With `analytics.view`.
 */
const CsvQuery = z.strictObject({
  report: oneOf(CSV_REPORTS),
  period: oneOf(["today", "7d", "30d"]),
  from: z.optional(z.string()),
  to: z.optional(z.string()),
});

async function guard(request: Request) {
  await requirePermission(request, "analytics.view", { mode: "api" });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/analytics.csv", async () => {
    await guard(request);
    const query = parseQuery(request, CsvQuery, { maxLength: 40 });
    if (query.period && (query.from || query.to)) throw new BadRequestError("INVALID_QUERY", "Give a period or from and to, not both.");
    const range = query.from || query.to ? parseRange(query) : rangeOf(isPeriod(query.period) ? query.period : "today");
    const report = query.report ?? "items";
    const csv = await analyticsCsv(await getDb(), report, range);
    const day = range.to.toISOString().slice(0, 10);
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="audience-${report}-${day}.csv"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  });
}

export const action = methodNotAllowed(["GET"], guard);
