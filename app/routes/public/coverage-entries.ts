import type { Route } from "./+types/coverage-entries";
import { z } from "zod/mini";
import { LIVE_PAGE_SIZE, type LiveEntriesAnswer } from "#domain/live.ts";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { BadRequestError, NotFoundError } from "#server/http/errors.server.ts";
import { liveRetryMs } from "#server/http/live-stream.server.ts";
import { cached } from "#server/content/cache.server.ts";
import { listEntries } from "#server/content/live/entries.server.ts";
import { publishedLiveCoverage } from "#server/content/live/pages.server.ts";

/** A cursor (an entry id or a change's version): digits only, as the sequence gives them. */
const cursor = () =>
  z.optional(z.pipe(z.string().check(z.regex(/^\d{1,15}$/, "must be a whole number (an entry id or an answer's cursor)")), z.transform(Number)));
const Query = z.strictObject({ after: cursor(), before: cursor() });

/**
 * Browsers keep an answer this long; shared caches (a CDN) as the CDN_* settings say, until a new entry purges it
 * (surrogate key `entries`): thousands of polling readers ask the same few addresses, answered from the CDN.
 */
const ENTRIES_BROWSER_SECONDS = 3;

/**
 * GET (/fr|/en)?/coverage/:slug/entries[?after=<cursor>|?before=<id>] (issue 44): a live coverage's entries, newest
 * first, as LiveEntriesAnswer. Without a parameter: the newest page. `after`: the changes since the reader's cursor
 * (new and edited entries, and the ids deleted), which is how the live script polls when it has no stream. `before`:
 * the older entries below an id. A 404 unless the coverage is published and has been live.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return handleApi("coverage entries", async () => {
    const { after, before } = parseQuery(request, Query);
    if (after !== undefined && before !== undefined) {
      throw new BadRequestError("INVALID_QUERY", "Give after or before, not both.", { fields: { before: "The before parameter cannot go with after." } });
    }
    const db = await getDb();
    const coverage = await publishedLiveCoverage(db, params.slug);
    if (!coverage) throw new NotFoundError("No live coverage at this address.", "NOT_FOUND");
    const list = await cached(`live:json:${coverage.id}:${after ?? ""}:${before ?? ""}`, ["entries"], () =>
      listEntries(db, coverage.id, { after, before, limit: LIVE_PAGE_SIZE }),
    );
    const answer: LiveEntriesAnswer = { ...coverage.state, ...list, retry_ms: liveRetryMs(getConfig()) };
    return apiJson(answer, { cache: `public, max-age=${ENTRIES_BROWSER_SECONDS}` });
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
