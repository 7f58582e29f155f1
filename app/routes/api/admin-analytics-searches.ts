import type { Route } from "./+types/admin-analytics-searches";
import { z } from "zod/mini";
import { oneOf, wholeNumberOr } from "#domain/query.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { lastDays, MAX_RANGE_DAYS, SEARCHES_DEFAULT_DAYS, topSearches } from "#server/analytics/queries.server.ts";
import { handleApi, methodNotAllowed, parseQuery, privateJson } from "#server/http/api.server.ts";

/**
 * GET /api/admin/analytics/searches?empty=1&days=30 — what readers searched for (issue 45; docs/api.md, "Audience
 * figures"): `[{ query, count }]`, most frequent first, at most 100, over the last `days` UTC days (1–400, default 30,
 * today included). `empty=1`: only the searches that found nothing (`count` the times they found nothing); without
 * it, every search. Queries are counted as typed, trimmed, spaces collapsed and lower-cased. With `analytics.view`.
 */
const SearchesQuery = z.strictObject({ empty: oneOf(["0", "1"]), days: wholeNumberOr(SEARCHES_DEFAULT_DAYS, 1, MAX_RANGE_DAYS) });

async function guard(request: Request) {
  await requirePermission(request, "analytics.view", { mode: "api" });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/analytics/searches", async () => {
    await guard(request);
    const { empty, days } = parseQuery(request, SearchesQuery);
    return privateJson(await topSearches(await getDb(), lastDays(days), { empty: empty === "1" }));
  });
}

export const action = methodNotAllowed(["GET"], guard);
