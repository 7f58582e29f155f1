import { CONTENT_TYPE_DEFINITIONS, type ContentType } from "#domain/content-types/index.ts";
import { getDb } from "#server/db/client.server.ts";
import { countView } from "#server/content/views.server.ts";
import { handleApi, methodNotAllowed } from "#server/http/api.server.ts";
import { BadRequestError, MethodNotAllowedError } from "#server/http/errors.server.ts";

/** Far more than `{"type":"…","id":…}` needs: a larger body is not a beacon. */
const MAX_BEACON_BYTES = 256;

/**
 * POST /api/views `{"type":"news","id":42}`: a reader's browser saw that item's detail page (the beacon of
 * app/enhance/reading.js, docs/decisions/0145-shared-cache.md). Counted once per reader per item per day in the
 * background, crawlers and prefetches skipped; always 204 and never stored by a cache, so a CDN passes each one on.
 * The body is JSON, sent as text/plain (a beacon's own type) or application/json.
 */
export async function action({ request }: { request: Request }) {
  return handleApi("api/views", async () => {
    if (request.method !== "POST") throw new MethodNotAllowedError(["POST"]);
    const text = await request.text();
    const target = text.length <= MAX_BEACON_BYTES ? viewOf(text) : null;
    if (!target) throw new BadRequestError("INVALID_VIEW", 'The body must be {"type": a content type with a detail page, "id": a positive integer}.');
    countView(await getDb(), request, target);
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  });
}

/** The item a beacon names, when it is one a detail page can show. */
function viewOf(text: string): { contentType: ContentType; contentId: number } | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const { type, id } = (body ?? {}) as { type?: unknown; id?: unknown };
  if (typeof type !== "string" || !Object.hasOwn(CONTENT_TYPE_DEFINITIONS, type)) return null;
  if (!CONTENT_TYPE_DEFINITIONS[type as ContentType].detailPage) return null;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return null;
  return { contentType: type as ContentType, contentId: id };
}

/** GET and the rest: 405 in the APIs' error shape. */
export const loader = methodNotAllowed(["POST"]);
