/**
 * Readers' push subscriptions (issue 32, docs/decisions/0127-breaking-news-alerts.md): what a browser's
 * `PushSubscription.toJSON()` gives (its push service's endpoint and the keys that encrypt for it) and the
 * language the reader's alerts come in. Subscribing twice from a browser updates its row; unsubscribing forgets it.
 */
import net from "node:net";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { LANGUAGES, type Language } from "#domain/language.ts";
import type { Config } from "#server/config.server.ts";
import type { Database } from "#server/db/client.server.ts";
import { pushSubscriptions } from "#server/db/schema.server.ts";
import { ValidationError } from "#server/http/errors.server.ts";
import { refusedRange } from "#server/http/outbound.server.ts";

/** Subscriptions (and unsubscriptions) per client address: a reader does it once or twice; a script stops. */
export const PUSH_RATE_LIMIT = { limit: 10, windowMs: 10 * 60 * 1000 } as const;
/** A subscription's JSON is a few hundred bytes; an endpoint is a URL of under 1 KB at every push service we know. */
export const PUSH_BODY_MAX_BYTES = 4096;
const ENDPOINT_MAX = 2048;

/** The VAPID settings when alerts are on (both keys set and well formed), else null: no opt-in anywhere. */
export function pushSettings(config: Pick<Config, "drivers" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT" | "CONTACT_EMAIL">) {
  if (config.drivers.push !== "web-push" || !config.VAPID_PUBLIC_KEY || !config.VAPID_PRIVATE_KEY) return null;
  return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject: config.VAPID_SUBJECT ?? `mailto:${config.CONTACT_EMAIL}` };
}
export type PushSettings = NonNullable<ReturnType<typeof pushSettings>>;

/** What the opt-in script needs in the page: the public key, or null when alerts are off. Never the private key. */
export function pushOptIn(config: Parameters<typeof pushSettings>[0]): { publicKey: string } | null {
  const settings = pushSettings(config);
  return settings ? { publicKey: settings.publicKey } : null;
}

const base64url = (bytes: number, what: string) =>
  z
    .string({ error: `${what} is required.` })
    .max(200, `${what} is too long.`)
    .refine((v) => /^[A-Za-z0-9_-]+=*$/.test(v) && Buffer.from(v, "base64url").length === bytes, `${what} must be ${bytes} bytes in base64url.`);

/**
 * Hosts a push service never has, told from the text alone: an early 400 for the obvious cases. The real guard is
 * the outbound agent (server/http/outbound.server.ts), which checks every address a name resolves to when it
 * connects (decision 0134): a public-looking name may still resolve to our network.
 */
function isPrivateHost(hostname: string): boolean {
  // `localhost.` and `metadata.google.internal.` are the same names as without the dot.
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.+$/, "");
  // The URL parser has already turned 0x7f.1, 2130706433 and [::127.0.0.1] into 127.0.0.1 and [::7f00:1].
  if (net.isIP(host)) return refusedRange(host) !== null;
  // Every push service has a dotted public name; a single label (this machine's host name, an /etc/hosts alias) never is one.
  if (!host.includes(".")) return true;
  return /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/.test(host);
}

function subscriptionSchema({ allowPrivateHosts }: { allowPrivateHosts: boolean }) {
  const endpoint = z
    .string({ error: "endpoint is required." })
    .max(ENDPOINT_MAX, `endpoint is longer than ${ENDPOINT_MAX} characters.`)
    .refine((v) => {
      try {
        const url = new URL(v);
        return url.protocol === "https:" && !url.username && !url.password && (allowPrivateHosts || !isPrivateHost(url.hostname));
      } catch {
        return false;
      }
    }, "endpoint must be the https address of a push service.")
    // Push services answer on 443 (the URL parser leaves the port empty for it); the outbound agent refuses others too.
    .refine((v) => allowPrivateHosts || !URL.canParse(v) || new URL(v).port === "", "endpoint must use the https port, 443.");
  return {
    subscribe: z.object({
      endpoint,
      keys: z.object({ p256dh: base64url(65, "keys.p256dh"), auth: base64url(16, "keys.auth") }, { error: "keys is required." }),
      expirationTime: z.number().nullable().optional(),
      language: z.enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(", ")}.` }).default("ar"),
    }),
    unsubscribe: z.object({ endpoint }),
  };
}

export type SubscriptionInput = { endpoint: string; keys: { p256dh: string; auth: string }; language: Language };

/** Refused input: 400 with one message per field (never echoing a value). */
function refused(error: z.ZodError): never {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join(".") || "body"] ??= issue.message;
  throw new ValidationError(Object.values(fields)[0] ?? "The subscription is not valid.", fields, { status: 400, code: "INVALID_SUBSCRIPTION" });
}

export function parseSubscription(body: unknown, { allowPrivateHosts = false } = {}): SubscriptionInput {
  const parsed = subscriptionSchema({ allowPrivateHosts }).subscribe.safeParse(body);
  if (!parsed.success) refused(parsed.error);
  const { endpoint, keys, language } = parsed.data;
  return { endpoint, keys, language };
}

export function parseUnsubscription(body: unknown, { allowPrivateHosts = false } = {}): { endpoint: string } {
  const parsed = subscriptionSchema({ allowPrivateHosts }).unsubscribe.safeParse(body);
  if (!parsed.success) refused(parsed.error);
  return parsed.data;
}

/** Stores a subscription, or updates the keys and language of the one with that endpoint. */
export async function saveSubscription(db: Database, input: SubscriptionInput): Promise<void> {
  const now = new Date();
  await db
    .insert(pushSubscriptions)
    .values({ endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, language: input.language, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { p256dh: input.keys.p256dh, auth: input.keys.auth, language: input.language, updatedAt: now },
    });
}

/** Forgets a subscription; whether there was one. */
export async function removeSubscription(db: Database, endpoint: string): Promise<boolean> {
  const gone = await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)).returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}
