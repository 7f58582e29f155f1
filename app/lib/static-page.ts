import { useEffect } from "react";
import { redirect, redirectDocument, useMatches } from "react-router";
import { neutralPath } from "#domain/addresses.ts";

/**
 * A reading route's `handle`. `hydrate: false`, or a function of the route's loader data that answers false,
 * makes the document the server renders for it a page without React in the browser: no route modules, no
 * loader data, no translations, only the small enhancement script (app/enhance/reading.js) for the header's
 * menu and search, share, toasts and the stored language (docs/decisions/0115-reading-pages-without-hydration.md).
 * Everything on such a page is HTML first: links are links, forms are forms.
 */
export type ReadingHandle = {
  hydrate?: boolean | ((data: unknown) => boolean);
  /**
   * The page's own enhancement modules beside reading.js (issue 30): fingerprinted asset URLs (a Vite `?url`
   * import of a file in app/enhance/), or a function of the loader data choosing them (a player only where a
   * video plays). Loaded only on the static document; a hydrated page has React's behaviour instead.
   */
  enhance?: readonly string[] | ((data: unknown) => readonly string[]);
};

function staysStatic(handle: unknown, data: unknown): boolean {
  const hydrate = (handle as ReadingHandle | undefined)?.hydrate;
  if (hydrate === false) return true;
  // No data: the route's loader threw and an error screen is shown; that keeps the app.
  return typeof hydrate === "function" && data !== undefined && !hydrate(data);
}

/**
 * True while the server renders a document for a route that does not hydrate. Always false in the browser:
 * a page reached by a client-side navigation from a hydrated page is already an app, and stays one.
 */
export function useStaticPage(): boolean {
  const matches = useMatches();
  if (typeof document !== "undefined") return false;
  return matches.some((m) => staysStatic(m.handle, m.data));
}

/** The enhancement modules the matched routes of a static document ask for, each once, in route order. */
export function useEnhancements(): string[] {
  const matches = useMatches();
  // Only a static document loads them (as useStaticPage); in the browser the data may be a client loader's own.
  if (typeof document !== "undefined") return [];
  const urls = new Set<string>();
  for (const m of matches) {
    const enhance = (m.handle as ReadingHandle | undefined)?.enhance;
    // A route without a loader (/contact) has no data: a list still applies; a function needs the data.
    if (!enhance || (typeof enhance === "function" && m.data === undefined)) continue;
    for (const url of typeof enhance === "function" ? enhance(m.data) : enhance) urls.add(url);
  }
  return [...urls];
}

/** The pages the React application renders in the browser: the back-office and the account pages. */
const APP_PAGES = /^\/(admin|auth|setup)(\/|$)/;
/** In any language: `/fr/auth` is the French account page (domain/addresses.ts). */
const isAppPage = (path: string) => APP_PAGES.test(neutralPath(new URL(path, "http://site.invalid").pathname));

/**
 * A redirect from an action of the React application: to one of its own pages as React Router's, to any other
 * page (home after signing in or out) as a document load, so the static page is the server's, never React's.
 */
export function redirectFrom(path: string, init?: ResponseInit): Response {
  return isAppPage(path) ? redirect(path, init) : redirectDocument(path, init);
}

/**
 * In the React application (the back-office, the account pages), a link or a GET form to any other page of the
 * site loads it as a document, answered by the page cache, instead of rendering it in React: every public page
 * is static (docs/decisions/0131-public-pages-without-hydration.md), so its behaviours exist once, in its
 * enhancement modules, and are never run by React in the browser. Stopped in the capture phase at the window,
 * the click never reaches React Router's handler and the browser follows the link itself.
 */
export function useDocumentLoadsForStaticPages() {
  useEffect(() => {
    const isStaticPage = (url: URL) => url.origin === window.location.origin && !isAppPage(url.pathname);
    const onClick = (event: MouseEvent) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      // A link that opens something in the page (the header's search, data-opens) is not a navigation.
      if (link.getAttribute("role") === "button" || link.hasAttribute("data-opens")) return;
      if (isStaticPage(new URL(link.href))) event.stopPropagation();
    };
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "get") return;
      if (isStaticPage(new URL(form.action, window.location.href))) event.stopPropagation();
    };
    window.addEventListener("click", onClick, true);
    window.addEventListener("submit", onSubmit, true);
    return () => {
      window.removeEventListener("click", onClick, true);
      window.removeEventListener("submit", onSubmit, true);
    };
  }, []);
}
