import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { NonceContext } from "./lib/nonce.tsx";
import { RequestIdContext } from "./lib/request-id.ts";
import { logger } from "#server/ops/logger.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext?.nonce ?? "";
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
