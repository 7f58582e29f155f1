import { parseBeacon } from "#domain/audience.ts";
import { getDb } from "#server/db/client.server.ts";
import { collectBeacon } from "#server/analytics/collect.server.ts";
import { handleApi, methodNotAllowed } from "#server/http/api.server.ts";
import { BadRequestError, MethodNotAllowedError } from "#server/http/errors.server.ts";

/**
 * POST /api/views: a reader's browser was shown a page (the beacon of app/enhance/reading.js, decisions 0145 and
 * 0147). `{"type":"news","id":42}` for an item's page or `{"page":"home"}` for another, with the page's language,
 * document.referrer, its utm_source and utm_campaign, and on the search page the query and its number of results
 * (domain/audience.ts `parseBeacon`). Collected in the background — DNT, Sec-GPC, crawlers and prefetches skipped —
 * and written in batches (server/analytics/collect.server.ts); always 204 and never stored by a cache, so a CDN
 * passes each one on. The body is JSON, sent as text/plain (a beacon's own type) or application/json.
 */
export async function action({ request }: { request: Request }) {
  return handleApi("api/views", async () => {
    if (request.method !== "POST") throw new MethodNotAllowedError(["POST"]);
    const beacon = parseBeacon(await request.text());
    if (!beacon)
      throw new BadRequestError(
        "INVALID_VIEW",
        'The body must be {"type": a content type with a detail page, "id": a positive integer} or {"page": a page key}, with optional "lang", "ref", "src", "camp" (and "q", "n" on the search page), at most 1024 bytes.',
      );
    collectBeacon(await getDb(), request, beacon);
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  });
}

/** GET and the rest: 405 in the APIs' error shape. */
export const loader = methodNotAllowed(["POST"]);
