// @ts-check
/**
 * The video library's search and sort as the reader types (public-site.md §2 "Video library"), enhancing the GET
 * form the server answers without JavaScript (app/routes/public/videos.tsx). Every video is in the page: the
 * cards the query leaves out wait in a <template data-video-rest>. The same rules as app/lib/video-library.ts:
 * every word of the query in the title or description, both through normalizeArabic (the card's text comes
 * normalised in `data-search`, the table for the query in the form's `data-normalize`); newest, most viewed,
 * longest, or by title in the page's language; ties by id. The address keeps ?q= and ?sort= in step.
 * Served as it is, hence plain JavaScript (docs/decisions/0132-video-player-without-react.md).
 */
const doc = document;

/** @param {ParentNode} root */
export function enhance(root) {
  const form = /** @type {HTMLFormElement | null} */ (root.querySelector("form[data-video-filter]"));
  const grid = doc.querySelector("[data-video-grid]");
  if (!form || !grid || form.dataset.enhanced) return;
  form.dataset.enhanced = "true";
  const data = form.dataset;
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("q"));
  const select = /** @type {HTMLSelectElement} */ (form.elements.namedItem("sort"));
  const count = /** @type {HTMLElement | null} */ (doc.querySelector("[data-video-count]"));
  const none = /** @type {HTMLElement | null} */ (doc.querySelector("[data-video-none]"));
  const clear = /** @type {HTMLElement | null} */ (doc.querySelector("[data-video-clear]"));
  const rest = /** @type {HTMLTemplateElement | null} */ (doc.querySelector("template[data-video-rest]"));

  /** @type {{ chars: Record<string, string>, removed: string, separators: string }} */
  const table = JSON.parse(data.normalize || "{}");
  const chars = new RegExp(`[${Object.keys(table.chars).join("")}]`, "gu");
  const removed = new RegExp(table.removed, "gu");
  const separators = new RegExp(`${table.separators}+`, "gu");
  /** normalizeArabic (domain/arabic.ts), from the table the server wrote. @param {string} text */
  const normalize = (text) =>
    text
      .normalize("NFKC")
      .replace(chars, (ch) => table.chars[ch])
      .replace(removed, "")
      .replace(separators, " ")
      .replace(/^ | $/g, "");

  const items = [...grid.children, ...(rest ? (rest.content.children.length ? rest.content.children : rest.children) : [])].map((node) => {
    const li = /** @type {HTMLElement} */ (node);
    const d = li.dataset;
    return {
      li,
      guid: d.guid || "",
      search: d.search || "",
      date: Date.parse(d.date || ""),
      views: Number(d.views),
      length: Number(d.length),
      title: d.title || "",
    };
  });
  /** @typedef {(typeof items)[number]} Item */
  const collator = new Intl.Collator(doc.documentElement.lang, { sensitivity: "base", numeric: true });
  /** @type {Record<string, (a: Item, b: Item) => number>} */
  const compare = {
    newest: (a, b) => b.date - a.date,
    views: (a, b) => b.views - a.views,
    duration: (a, b) => b.length - a.length,
    title: (a, b) => collator.compare(a.title, b.title),
  };
  const numbers = new Intl.NumberFormat(data.numberLocale, { maximumFractionDigits: 1 });
  const max = Number(data.queryMax) || 100;

  function apply() {
    const q = input.value;
    const sort = compare[select.value] ? select.value : data.defaultSort || "newest";
    const words = normalize(q.slice(0, max)).split(" ").filter(Boolean);
    const shown = items
      .filter((v) => words.every((w) => v.search.includes(w)))
      .sort((a, b) => compare[sort](a, b) || (a.guid < b.guid ? -1 : a.guid > b.guid ? 1 : 0));
    grid.replaceChildren(...shown.map((v) => v.li));
    if (count) {
      count.hidden = shown.length === 0;
      count.textContent = (data.count || "{n}").replace("{n}", numbers.format(shown.length));
    }
    if (none) none.hidden = shown.length > 0;
    if (clear) clear.hidden = !q;
    const params = new URLSearchParams();
    if (q.trim()) params.set("q", q);
    if (sort !== data.defaultSort) params.set("sort", sort);
    const search = params.toString();
    history.replaceState(history.state, "", `${location.pathname}${search ? `?${search}` : ""}${location.hash}`);
  }

  input.addEventListener("input", apply);
  select.addEventListener("change", apply);
  // The list is already up to date: Enter does not reload the page.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    apply();
  });
  clear?.addEventListener("click", (event) => {
    event.preventDefault();
    input.value = "";
    apply();
    input.focus();
  });
}

// The static document: now. An app page calls enhance() itself (app/lib/enhance-in-app.ts).
if (!("__reactRouterContext" in window)) enhance(doc);
