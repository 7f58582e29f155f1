import type { Route } from "./+types/push-subscriptions";
import { getConfig } from "#server/config.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { clientAddress } from "#server/content/views.server.ts";
import { handleApi, methodNotAllowed, privateJson } from "#server/http/api.server.ts";
import { NotFoundError, RateLimitedError } from "#server/http/errors.server.ts";
import { readJsonObject } from "#server/http/request-body.server.ts";
import { pushRateLimiter } from "#server/http/rate-limiters.server.ts";
import {
  parseSubscription,
  parseUnsubscription,
  PUSH_BODY_MAX_BYTES,
  pushSettings,
  removeSubscription,
  saveSubscription,
} from "#server/push/subscriptions.server.ts";

/**
 * Breaking-news alerts' subscriptions (docs/decisions/0127-breaking-news-alerts.md), written by app/enhance/push.js:
 *  - POST /api/push/subscriptions `{ endpoint, keys: { p256dh, auth }, language }` (a PushSubscription's JSON and
 *    the page's language): 201, stored or updated;
 *  - DELETE /api/push/subscriptions `{ endpoint }`: 200 `{ removed }`.
 * 400 INVALID_SUBSCRIPTION (one message per field) or BAD_JSON, 413 over 4 KB, 429 RATE_LIMITED per address with
 * Retry-After, 403 from another site (the request guard), 404 PUSH_OFF without VAPID keys.
 */
export async function action({ request }: Route.ActionArgs) {
  return handleApi("api/push/subscriptions", async () => {
    if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed(["POST", "DELETE"])({ request, params: {} });
    if (!pushSettings(getConfig())) throw new NotFoundError("Breaking-news alerts are not enabled on this site.", "PUSH_OFF");
    const limit = await pushRateLimiter.hit(`push:${clientAddress(request)}`);
    if (!limit.allowed)
      throw new RateLimitedError("Too many subscription changes from this address. Please try again later.", { retryAfterSeconds: limit.retryAfterMs / 1000 });
    const body = await readJsonObject(request, PUSH_BODY_MAX_BYTES);
    const db = await getDb();
    if (request.method === "DELETE") return privateJson({ removed: await removeSubscription(db, parseUnsubscription(body).endpoint) });
    await saveSubscription(db, parseSubscription(body));
    return privateJson({ subscribed: true }, 201);
  });
}

/** GET and the rest: 405 in the APIs' error shape. */
export const loader = methodNotAllowed(["POST", "DELETE"]);
