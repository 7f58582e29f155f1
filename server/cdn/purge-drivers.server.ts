/**
 * The shared cache's purge drivers (issue 43): each takes a list of surrogate keys (the page cache's tags, `site`,
 * `social`, `home`, `<type>-<id>`) and removes every page carrying one of them, or throws a `CdnPurgeError`.
 *
 * - Varnish (deploy/varnish/default.vcl, the xkey module): `PURGE <VARNISH_PURGE_URL>` with `xkey-purge: k1 k2 …`;
 *   only a 200 is a success.
 * - Bunny CDN (https://docs.bunny.net/api-reference/core/pull-zone/purge-cache): `POST /pullzone/{id}/purgeCache`
 *   with the `AccessKey` header; its body names one `CacheTag`, so one call per key; without a body the whole pull zone.
 * - Cloudflare (POST /zones/{zone}/purge_cache, a bearer token): `{"tags": […]}` or `{"files": […]}`, at most 100
 *   of either in one call (the documented per-request limit on every plan), so longer lists are split; a 200 whose
 *   body says `"success": false` is a failure too.
 *
 * The addresses are the operator's (a setting), not a reader's, so these requests do not go through
 * server/http/outbound.server.ts, whose guard refuses loopback and private addresses (where Varnish lives) and plain
 * http. They get what that module gives for the same reasons: a deadline for the whole exchange, no redirect
 * followed, and at most a few kilobytes of an answer read (for the error message).
 */
import type { Config } from "#server/config.server.ts";
import { CodedError, type ErrorContext } from "#server/errors.server.ts";

export type PurgeDriverName = "varnish" | "bunny" | "cloudflare";

export type PurgeDriver = {
  readonly name: PurgeDriverName;
  /** Removes every cached answer carrying one of these keys; resolves once the CDN has accepted all of it. */
  purge: (keys: readonly string[]) => Promise<void>;
};

/** A purge the CDN refused or never answered. The message names the driver, the status and the start of the answer, never a key. */
export class CdnPurgeError extends CodedError {
  declare readonly code: "CDN_PURGE_FAILED";
  constructor(message: string, context?: ErrorContext) {
    super("CDN_PURGE_FAILED", message, { level: "warn", context });
  }
}

/** The whole exchange (connect, request, answer) must be over within this. */
export const PURGE_DEADLINE_MS = 10_000;
/** Of an answer, only this much is read: enough for an error message. */
const MAX_ANSWER_BYTES = 4096;
/** Cloudflare's documented limit of tags, or of URLs, in one purge request. */
export const CLOUDFLARE_PURGE_BATCH = 100;

type Answer = { status: number; body: string };

async function exchange(driver: PurgeDriverName, url: string, init: RequestInit, deadlineMs: number): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(deadlineMs) });
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${deadlineMs} ms` : describe(error);
    throw new CdnPurgeError(`${driver} purge failed: ${reason}`, { driver });
  }
  return { status: response.status, body: await boundedText(response) };
}

/** The cause's own message (fetch says only "fetch failed"), without the URL, which may carry the zone. */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.message ?? cause?.code ?? (error instanceof Error ? error.message : "request failed");
}

async function boundedText(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // What arrived is enough: the status decides.
  } finally {
    void reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString("utf8");
}

function refused(driver: PurgeDriverName, answer: Answer): CdnPurgeError {
  const excerpt = answer.body.replace(/\s+/g, " ").trim().slice(0, 200);
  return new CdnPurgeError(`${driver} purge refused: HTTP ${answer.status}${excerpt ? ` ${excerpt}` : ""}`, { driver, status: answer.status });
}

const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;

/** Keys as the CDNs take them: no empty ones, no spaces (a space separates keys in `xkey-purge`), each once. */
export function cleanKeys(keys: readonly string[]): string[] {
  return [...new Set(keys.map((key) => key.trim()).filter((key) => key && !/\s/.test(key)))];
}

export function varnishPurgeDriver({ url, deadlineMs = PURGE_DEADLINE_MS }: { url: string; deadlineMs?: number }): PurgeDriver {
  return {
    name: "varnish",
    async purge(keys) {
      const list = cleanKeys(keys);
      if (!list.length) return;
      const answer = await exchange("varnish", url, { method: "PURGE", headers: { "xkey-purge": list.join(" ") } }, deadlineMs);
      if (answer.status !== 200) throw refused("varnish", answer);
    },
  };
}

export type BunnyPurgeDriver = PurgeDriver & { purgeAll: () => Promise<void> };

export function bunnyPurgeDriver({
  apiUrl,
  apiKey,
  pullZoneId,
  deadlineMs = PURGE_DEADLINE_MS,
}: {
  apiUrl: string;
  apiKey: string;
  pullZoneId: string;
  deadlineMs?: number;
}): BunnyPurgeDriver {
  const url = `${apiUrl.replace(/\/+$/, "")}/pullzone/${encodeURIComponent(pullZoneId)}/purgeCache`;
  const call = async (body: string | undefined) => {
    const headers: Record<string, string> = { AccessKey: apiKey, Accept: "application/json" };
    if (body) headers["Content-Type"] = "application/json";
    const answer = await exchange("bunny", url, { method: "POST", headers, body }, deadlineMs);
    if (!ok(answer)) throw refused("bunny", answer);
  };
  return {
    name: "bunny",
    async purge(keys) {
      // One tag per call (the API's body has one CacheTag); in turn, so that a refusal stops the rest, and the retry repeats them all.
      for (const key of cleanKeys(keys)) await call(JSON.stringify({ CacheTag: key }));
    },
    /** The whole pull zone (an operator's last resort; the origin takes the refill). */
    purgeAll: () => call(undefined),
  };
}

export type CloudflarePurgeDriver = PurgeDriver & { purgeUrls: (urls: readonly string[]) => Promise<void> };

export function cloudflarePurgeDriver({
  apiUrl,
  zoneId,
  token,
  deadlineMs = PURGE_DEADLINE_MS,
}: {
  apiUrl: string;
  zoneId: string;
  token: string;
  deadlineMs?: number;
}): CloudflarePurgeDriver {
  const url = `${apiUrl.replace(/\/+$/, "")}/zones/${encodeURIComponent(zoneId)}/purge_cache`;
  const call = async (body: { tags: string[] } | { files: string[] }) => {
    const answer = await exchange(
      "cloudflare",
      url,
      { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) },
      deadlineMs,
    );
    if (!ok(answer) || !succeeded(answer.body)) throw refused("cloudflare", answer);
  };
  const inBatches = async (items: readonly string[], send: (batch: string[]) => Promise<void>) => {
    for (let i = 0; i < items.length; i += CLOUDFLARE_PURGE_BATCH) await send(items.slice(i, i + CLOUDFLARE_PURGE_BATCH));
  };
  return {
    name: "cloudflare",
    purge: (keys) => inBatches(cleanKeys(keys), (tags) => call({ tags })),
    purgeUrls: (urls) => inBatches([...new Set(urls)], (files) => call({ files })),
  };
}

/** Cloudflare's envelope: `{"success": true, "errors": [], …}`. */
function succeeded(body: string): boolean {
  try {
    return (JSON.parse(body) as { success?: unknown }).success === true;
  } catch {
    return false;
  }
}

/** The driver CDN_PURGE names with its settings, or null for none (or a driver whose settings are missing). */
export function purgeDriverFor(config: Config): PurgeDriver | null {
  switch (config.drivers.cdnPurge) {
    case "varnish":
      return config.VARNISH_PURGE_URL ? varnishPurgeDriver({ url: config.VARNISH_PURGE_URL }) : null;
    case "bunny":
      return config.BUNNY_API_KEY && config.BUNNY_PULL_ZONE_ID
        ? bunnyPurgeDriver({ apiUrl: config.BUNNY_API_URL, apiKey: config.BUNNY_API_KEY, pullZoneId: config.BUNNY_PULL_ZONE_ID })
        : null;
    case "cloudflare":
      return config.CLOUDFLARE_ZONE_ID && config.CLOUDFLARE_API_TOKEN
        ? cloudflarePurgeDriver({ apiUrl: config.CLOUDFLARE_API_URL, zoneId: config.CLOUDFLARE_ZONE_ID, token: config.CLOUDFLARE_API_TOKEN })
        : null;
    default:
      return null;
  }
}
