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

if (list && model) {
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
