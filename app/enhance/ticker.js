// @ts-check
/**
 * The header's ticker keeps itself current (issue 44): its items are asked for again from /live.json (in the
 * page's language, the list's data-ticker-src) every retry_ms while the tab is visible, and replaced in place.
 * The bar itself stays (its height is fixed), even when nothing is live any more: the page under it never moves.
 */
const doc = document;
const list = /** @type {HTMLElement | null} */ (doc.querySelector("[data-ticker-src]"));

// The model of an item, kept: the list may be empty for a while and filled again.
const model = /** @type {HTMLElement | null | undefined} */ (list?.firstElementChild?.cloneNode(true));

const next = /** @type {HTMLButtonElement | null} */ (doc.querySelector("[data-ticker-next]"));
let shown = 0;

/** Shows the item at `index` (wrapped), alone, and the "next" button when there is more than one. */
const show = (/** @type {number} */ index) => {
  if (!list) return;
  const items = [...list.children];
  shown = items.length ? ((index % items.length) + items.length) % items.length : 0;
  items.forEach((li, i) => /** @type {HTMLElement} */ (li.hidden = i !== shown));
  if (next) next.hidden = items.length < 2;
};

if (list && model) {
  show(0);
  next?.addEventListener("click", () => show(shown + 1));
  let wait = 30_000;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const tick = async () => {
    clearTimeout(timer);
    if (doc.hidden) return;
    try {
      const res = await fetch(/** @type {string} */ (list.dataset.tickerSrc), { headers: { Accept: "application/json" } });
      if (res.ok) {
        /** @type {import("#domain/live.ts").TickerAnswer} */
        const answer = await res.json();
        wait = answer.retry_ms || wait;
        {
          // The item the reader has before them stays before them when it is still in the list.
          const current = list.children[shown]?.querySelector("a")?.getAttribute("href");
          const prefix = list.dataset.tickerSrc?.replace(/\/live\.json$/, "") || "";
          list.replaceChildren(
            ...answer.items.map((item) => {
              const li = /** @type {HTMLElement} */ (model.cloneNode(true));
              const [label, link] = /** @type {HTMLElement[]} */ ([...li.children]);
              li.dataset.kind = item.kind;
              label.textContent = (item.kind === "live" ? list.dataset.labelLive : list.dataset.labelBreaking) || "";
              label.className = label.className.replace(/bg-\S+/, item.kind === "live" ? "bg-red-700" : "bg-ink");
              // The answer's urls are in its language already; a neutral one gets the page's prefix.
              link.setAttribute("href", item.url.startsWith(prefix + "/") || !item.url.startsWith("/") ? item.url : prefix + item.url);
              link.textContent = item.title;
              return li;
            }),
          );
          show(
            Math.max(
              0,
              [...list.children].findIndex((li) => li.querySelector("a")?.getAttribute("href") === current),
            ),
          );
        }
      }
    } catch {
      // The network failed: the items shown stay until the next round.
    }
    timer = setTimeout(tick, wait);
  };
  // At once: the page may come from a cache a little older than the ticker.
  void tick();
  doc.addEventListener("visibilitychange", () => void tick());
}
