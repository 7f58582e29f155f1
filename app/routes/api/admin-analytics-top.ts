import type { Route } from "./+types/admin-analytics-top";
import { z } from "zod/mini";
import { oneOf } from "#domain/query.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { PERIODS, topOfPeriod } from "#server/analytics/queries.server.ts";
import { handleApi, methodNotAllowed, parseQuery, privateJson } from "#server/http/api.server.ts";

/**
 * GET /api/admin/analytics/top?period=now|today|7d|30d — the most read published items (issue 45; docs/api.md,
 * "Audience figures"): `{ period, from, to, items: [{ type, id, title, url, views }] }`, most read first, at most 10.
 * `now` is the last 30 minutes from the raw rows (an item's `views`: its readers then); the others read the rollups.
 * Without a period: today. With `analytics.view`.
 */
const TopQuery = z.strictObject({ period: oneOf(PERIODS) });

async function guard(request: Request) {
  await requirePermission(request, "analytics.view", { mode: "api" });
}

export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/analytics/top", async () => {
    await guard(request);
    const period = parseQuery(request, TopQuery).period ?? "today";
    const { range, items } = await topOfPeriod(await getDb(), period);
    return privateJson({
      period,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      items: items.map(({ type, id, title, url, views }) => ({ type, id, title, url, views })),
    });
  });
}

export const action = methodNotAllowed(["GET"], guard);
