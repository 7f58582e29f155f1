import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { NonceContext } from "./lib/nonce.tsx";
import { RequestIdContext } from "./lib/request-id.ts";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "#server/db/unavailable.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { movedAddressResponse } from "#server/content/moved-addresses.server.ts";

export const streamTimeout = 5_000;

/**
 * Requests whose loaders failed because the database does not answer (handleError sees the error before the
 * render; React Router hands the render only a sanitised copy): answered 503 with Retry-After, not 500, as the page
 * cache answers a page it has no copy of (decision 0135).
 */
const databaseUnavailable = new WeakSet<Request>();

function markUnavailable(headers: Headers) {
  headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
  headers.set("Cache-Control", "no-store");
}

/** A client navigation's data (`.data`) whose loaders met a silent database: 503 with Retry-After, as its page. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  if (response.status < 500 || !databaseUnavailable.has(request)) return response;
  const headers = new Headers(response.headers);
  markUnavailable(headers);
  return new Response(response.body, { status: 503, headers });
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A reading page that is not found (a tag's, an item's) may have moved (decision 0144): looked up on the 404 path only.
  if (responseStatusCode === 404) {
    const moved = await movedAddressResponse(await getDb(), request).catch((error: unknown) => {
      logger.warn({ err: error }, "moved address lookup failed");
      return null;
    });
    if (moved) return moved;
  }
  const nonce = loadContext?.nonce ?? "";
  if (responseStatusCode >= 500 && databaseUnavailable.has(request)) {
    responseStatusCode = 503;
    markUnavailable(responseHeaders);
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and SPA-mode get the whole document at once; readers get it streamed.
    const readyOption: keyof RenderToPipeableStreamOptions = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        {/* The error screen shows this request's id as its number, whichever loader failed, the root's included. */}
        <RequestIdContext.Provider value={loadContext?.requestId ?? ""}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </RequestIdContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, "render error");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/** The status a thrown value stands for, when it is a client's error (React Router's 404/405, a refused body). */
function clientErrorStatus(error: unknown): number | null {
  const status = isRouteErrorResponse(error) ? error.status : (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500 ? status : null;
}

/**
 * Errors that reach React Router. A client's error (an unknown route's data, a method a route does not take, a
 * body refused) is the client's: logged at info with its status, so that scanners do not fire an operator's
 * alerts. Error level is for faults of ours.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isDatabaseUnavailable(error)) {
    databaseUnavailable.add(request);
    logger.warn({ err: error, url: request.url }, "the database does not answer");
    return;
  }
  const status = clientErrorStatus(error);
  if (status)
    logger.info(
      {
        status,
        method: request.method,
        url: request.url,
        reason: error instanceof Error ? error.message : String((error as { statusText?: string }).statusText ?? ""),
      },
      "client error",
    );
  else logger.error({ err: error, url: request.url }, "unhandled request error");
};
