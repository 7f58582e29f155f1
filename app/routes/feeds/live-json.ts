import type { Route } from "./+types/live-json";
import { languageOfAddress } from "#domain/addresses.ts";
import type { TickerAnswer } from "#domain/live.ts";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { apiJson, handleApi, methodNotAllowed, NO_QUERY, parseQuery } from "#server/http/api.server.ts";
import { liveRetryMs } from "#server/http/live-stream.server.ts";
import { tickerItems } from "#server/content/live/ticker.server.ts";

/** Browsers keep the ticker this long; shared caches as the CDN_* settings say, until a start, an end or a breaking item purges it. */
const TICKER_BROWSER_SECONDS = 10;

/**
 * GET (/fr|/en)?/live.json: the header's ticker (issue 44) in the address's language, for app/enhance/ticker.js,
 * which asks again after `retry_ms` (longer when this process is loaded).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("live.json", async () => {
    parseQuery(request, NO_QUERY);
    const lang = languageOfAddress(new URL(request.url).pathname);
    const answer: TickerAnswer = { items: await tickerItems(await getDb(), lang), retry_ms: liveRetryMs(getConfig()) };
    return apiJson(answer, { cache: `public, max-age=${TICKER_BROWSER_SECONDS}` });
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
