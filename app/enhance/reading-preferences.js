// @ts-check
/**
 * Night reading and text size with JavaScript (decision 0149): a choice in the footer's form is applied as it is made,
 * without a reload — the attributes on <html> that app/app.css reads, and the cookie the server renders them from
 * (domain/reading-preferences.ts: `theme.size`, the default by removing it). Loaded by app/enhance/reading.js when the
 * form is first focused (its `data-enhance-src`), so that the pages read without touching it carry none of it; without
 * JavaScript, and in the React application, the form posts to /preferences.
 */
const doc = document;
const root = doc.documentElement;
const form = /** @type {HTMLFormElement | null} */ (doc.querySelector("form[data-reading-preferences]"));

function apply() {
  if (!form) return;
  const data = new FormData(form);
  const theme = String(data.get("theme"));
  const size = String(data.get("size"));
  if (theme === "system") delete root.dataset.theme;
  else root.dataset.theme = theme;
  if (size === "normal") delete root.dataset.textSize;
  else root.dataset.textSize = size;
  const keep = theme !== "system" || size !== "normal";
  doc.cookie = `sahara_reading=${keep ? `${theme}.${size}` : ""}; path=/; max-age=${keep ? 31536000 : 0}; samesite=lax${location.protocol === "https:" ? "; secure" : ""}`;
}

form?.addEventListener("change", apply);
form?.addEventListener("submit", (event) => {
  event.preventDefault();
  apply();
});
// The click that focused the form (and loaded this module) may have changed a choice before it arrived.
apply();
