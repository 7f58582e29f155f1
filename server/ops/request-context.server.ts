/**
 * What this process knows about the request it is working for, wherever it is in the code: its id (sent back as
 * X-Request-Id, written on every log line, shown as the error screen's number) and the route that answers it
 * (the access log's and the metrics' `route`). Kept in an AsyncLocalStorage entered by the access log's
 * middleware (server/ops/access-log.server.ts), so a loader, a query or a job started by a request logs with
 * that request's id without being handed it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";

export type RequestContext = {
  id: string;
  /** A bounded label: a React Router route pattern (`/news/:slug`), a mount (`/uploads`), `static`… never a raw path. */
  route?: string;
  /** The page cache's verdict (X-Page-Cache), or `bypass` when the cache looked and passed. */
  pageCache?: string;
};

export const REQUEST_ID_HEADER = "X-Request-Id";

// One store per process, even when development's module reloading evaluates this file again.
const STORE = Symbol.for("sahara.requestContext");
const storage: AsyncLocalStorage<RequestContext> =
  ((globalThis as Record<symbol, unknown>)[STORE] as AsyncLocalStorage<RequestContext> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[STORE] = new AsyncLocalStorage<RequestContext>());

export function runWithRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.id;
}

/** Names the route that answers the current request (a later, more precise layer overwrites an earlier one; undefined forgets). */
export function labelRequest(route: string | undefined) {
  const context = storage.getStore();
  if (context) context.route = route;
}

export function notePageCache(state: string) {
  const context = storage.getStore();
  if (context) context.pageCache = state;
}

/**
 * The spec's error number (public-site.md: a 9-character random string), made from capitals and digits a reader
 * cannot confuse when reading it out (no 0/O, 1/I): 32^9, about 3.5·10^13 values.
 */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Random bytes for ids, drawn from a batch (ids are not secrets; one draw per request showed in profiles). */
let randomPool = Buffer.alloc(0);
let randomOffset = 0;

export function newRequestId(): string {
  if (randomOffset + 9 > randomPool.length) {
    randomPool = crypto.randomBytes(9 * 256);
    randomOffset = 0;
  }
  let id = "";
  for (let i = 0; i < 9; i++) id += ALPHABET[randomPool[randomOffset + i] % ALPHABET.length];
  randomOffset += 9;
  return id;
}

/** What a proxy's X-Request-Id may be to be used as ours: printable, no spaces or quotes, at most 128 characters. */
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:+=/@-]{0,127}$/;

export function acceptedRequestId(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && SANE_ID.test(value) ? value : undefined;
}
