/**
 * The view counter's beacon (docs/decisions/0145-shared-cache.md): a detail page names its item in a meta tag, and
 * the browser posts it to POST /api/views once per page shown. app/enhance/reading.js sends it on a document load
 * (its own few lines, plain JavaScript); the React application on a client-side navigation to a detail page.
 */
export const VIEW_META = "sahara-view";
export const VIEW_BEACON_PATH = "/api/views";

/** Posts `{"type","id"}` (as text/plain, which a beacon may send without a preflight); never throws. */
export function sendViewBeacon(type: string, id: number): void {
  try {
    navigator.sendBeacon?.(VIEW_BEACON_PATH, JSON.stringify({ type, id }));
  } catch {
    // A refused beacon loses one view, never the page.
  }
}
