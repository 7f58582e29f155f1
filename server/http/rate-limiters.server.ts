/**
 * The public forms' rate limiters, one per limit (search's, per reader and per address, are
 * server/search/search-limits.server.ts). Apart from the domain modules that define the
 * limits, and server-only by name: those modules also export constants and types the back-office screens use,
 * so they reach the browser bundle, and a limiter made at their top level took the Redis client and the
 * configuration module with it.
 */
import { createRateLimiter } from "./rate-limit.server.ts";
import { CONTACT_RATE_LIMIT } from "#server/content/contacts.server.ts";
import { NEWSLETTER_RATE_LIMIT } from "#server/newsletter/subscriptions.server.ts";
import { PUSH_RATE_LIMIT } from "#server/push/subscriptions.server.ts";

/** The contact form and the write-article box: one budget per address. */
export const contactRateLimiter = createRateLimiter({ name: "contact", ...CONTACT_RATE_LIMIT });
/** Sign-ups accepted per client address: a person signs up once or twice; a script mailing strangers stops. */
export const newsletterRateLimiter = createRateLimiter({ name: "newsletter", ...NEWSLETTER_RATE_LIMIT });
/** Push subscriptions and unsubscriptions per address (breaking-news alerts, decision 0127). */
export const pushRateLimiter = createRateLimiter({ name: "push", ...PUSH_RATE_LIMIT });
