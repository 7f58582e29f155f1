/**
 * The audience beacon (decisions 0145 and 0147): every reading page names itself in a meta tag — an item's page
 * `"<type>:<id>"`, any other its page key (domain/audience.ts) — and the browser posts it to POST /api/views once
 * per page shown. app/enhance/reading.js sends it on a document load (its own few lines, plain JavaScript, with the
 * referrer and the address's utm_ tags); the React application on a client-side navigation to a detail page, with
 * this module. Neither sends for a reader whose browser says Do Not Track or Global Privacy Control.
 */
export const VIEW_META = "sahara-view";
/** On the search page: the number of results of the search shown (its query is the address's `q`). */
export const SEARCH_RESULTS_META = "sahara-search";
export const VIEW_BEACON_PATH = "/api/views";

/** Whether the reader's browser asks not to be followed (DNT, GPC). */
export function asksNotToBeTracked(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === "1" || nav.globalPrivacyControl === true;
}

/**
 * Posts `{"type","id"}` with the page's language and its address's utm_ tags (as text/plain, which a beacon may
 * send without a preflight); never throws. No referrer: a client-side navigation is a click within the site.
 */
export function sendViewBeacon(type: string, id: number): void {
  try {
    if (asksNotToBeTracked()) return;
    const params = new URLSearchParams(location.search);
    const beacon: Record<string, unknown> = { type, id, lang: document.documentElement.lang };
    const src = params.get("utm_source");
    const camp = params.get("utm_campaign");
    if (src) beacon.src = src.slice(0, 40);
    if (camp && /^[\w.-]{1,64}$/.test(camp)) beacon.camp = camp;
    navigator.sendBeacon?.(VIEW_BEACON_PATH, JSON.stringify(beacon));
  } catch {
    // A refused beacon loses one view, never the page.
  }
}
