import { createContext, useContext } from "react";

/**
 * The error screen's number is the failing request's id (X-Request-Id, written on every server log line of that
 * request: docs/operations.md), so that a reader's report leads to the log line of the failure.
 *
 * - Rendered by the server: the id of the request being rendered, handed to the document by app/entry.server.tsx
 *   through this context. The browser hydrating that screen takes the number from the document (the
 *   `data-error-source="server"` element) rather than make one.
 * - After a navigation in the browser: the id of the data request (`….data`) that failed for the page shown,
 *   noted from its answer's header by `watchDataRequests`.
 * - A failure of the browser's own (a component that throws, no server request failed): a number made in the
 *   browser, found in the browser's console (`[error NUMBER]`) and in no server log.
 */
export const RequestIdContext = createContext("");
export const useRequestId = () => useContext(RequestIdContext);

export type ErrorNumberSource = "server" | "request" | "browser";

/** The spec's 9-character error number, in the alphabet of the server's ids (server/ops/request-context.server.ts). */
export function makeErrorNumber(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = new Uint8Array(9);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/** A path as one key whether it came percent-encoded (a URL) or not (a router location). */
function pathKey(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** The page a data request is for: `/news.data` → `/news`, the root's `/_root.data` → `/`. */
export function pageOfDataRequest(pathname: string): string | null {
  if (!pathname.endsWith(".data")) return null;
  const page = pathname.slice(0, -".data".length);
  return pathKey(page === "/_root" ? "/" : page.replace(/\/_$/, "/") || "/");
}

/** The last data request's answer for each page: its status and id. */
const lastDataAnswer = new Map<string, { status: number; id: string | null }>();
let watching = false;

/** Notes the status and X-Request-Id of every data request (React Router's `fetch` of `….data`). Once, in the browser. */
export function watchDataRequests() {
  if (watching || typeof window === "undefined") return;
  watching = true;
  const fetchOf = window.fetch.bind(window);
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await fetchOf(...args);
    try {
      const page = pageOfDataRequest(new URL(response.url || String(args[0] instanceof Request ? args[0].url : args[0]), location.href).pathname);
      if (page) {
        if (lastDataAnswer.size > 50) lastDataAnswer.clear();
        lastDataAnswer.set(page, { status: response.status, id: response.headers.get("X-Request-Id") });
      }
    } catch {
      // Noting is best-effort: the page's own request goes on untouched.
    }
    return response;
  };
}

/** The id of the failed data request for `pathname`, when its last one failed (4xx or 5xx) and said its id. */
export function failedDataRequestId(pathname: string): string | null {
  const answer = lastDataAnswer.get(pathKey(pathname));
  return answer && answer.status >= 400 && answer.id ? answer.id : null;
}

let documentNumberShown = false;

/**
 * The number the server put in the document, while the browser hydrates the screen it rendered; null once any
 * error screen has been shown in the browser (the document's number belongs to the first).
 */
export function documentErrorNumber(): string | null {
  if (documentNumberShown || typeof document === "undefined") return null;
  return document.querySelector('[data-error-source="server"]')?.textContent?.trim() || null;
}

export function errorScreenShown() {
  documentNumberShown = true;
}
