// @ts-check
/**
 * /news without React (issue 30; docs/decisions/0131-public-pages-without-hydration.md): the listing's two ways
 * of loading more, the infinite scroll and the load-more button, share one loader: one request in flight at a
 * time, keyed by the page it asks for, and a page once shown is never asked for again (decision 0043).
 * - the scroll: a page is asked for when the bottom sentinel comes within 200 px of view (spec §2; a page shorter
 *   than the window has the sentinel inside that margin, which is its "extra load" rule);
 * - each page is tried 3 times, 1 s then 2 s apart (app/lib/retry.ts's rule; a 4xx other than 408 and 429 is
 *   not tried again); then the scroll stops and the retry button shows (spec §4), until the reader taps it;
 * - the cards come from /api/news?page=N asked for as HTML: the server renders them as on the page, in its
 *   language; every string shown here is in the page's own markup (the button's data-label-loading, the
 *   error and end templates).
 * The list says what it is doing as data-state (idle, loading, error, end) and aria-busy.
 */
const doc = document;
const list = /** @type {HTMLElement | null} */ (doc.querySelector('[data-testid="news-list"]'));
const sentinel = doc.querySelector('[data-testid="news-sentinel"]');
const controls = doc.querySelector("[data-news-controls]");
const form = controls?.querySelector("form");
const button = /** @type {HTMLButtonElement | null | undefined} */ (form?.querySelector("button"));
const pageInput = /** @type {HTMLInputElement | null | undefined} */ (form?.querySelector('input[name="page"]'));

if (list && sentinel && controls && form && button && pageInput) {
  const idleLabel = button.textContent || "";
  let last = Number(pageInput.value) - 1;
  let inFlight = false;
  let halted = false;
  /** @type {IntersectionObserver | null} */
  let observer = null;
  /** @type {HTMLElement | null} */
  let errorBox = null;

  /** @param {string} name */
  const fromTemplate = (name) =>
    /** @type {HTMLElement} */ (
      /** @type {HTMLTemplateElement} */ (controls.querySelector(`template[data-news="${name}"]`)).content.firstElementChild?.cloneNode(true)
    );

  /** @param {"idle" | "loading" | "error" | "end"} state */
  const setState = (state) => {
    const busy = state === "loading";
    list.dataset.state = state;
    list.setAttribute("aria-busy", String(busy));
    button.disabled = busy;
    button.setAttribute("aria-busy", String(busy));
    button.textContent = busy ? button.dataset.labelLoading || idleLabel : idleLabel;
    if (state === "idle" || busy) {
      if (!form.isConnected) controls.prepend(form);
    } else form.remove();
    // The scroll only listens while the list is idle. A new observer reports at once whether the sentinel is in
    // view, so a reader still at the bottom after a page arrives gets the next one.
    observer?.disconnect();
    observer = null;
    if (state === "idle" && typeof IntersectionObserver !== "undefined") {
      observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), { rootMargin: "0px 0px 200px 0px" });
      observer.observe(sentinel);
    }
  };

  /** @param {number} page @returns {Promise<HTMLTemplateElement>} */
  const fetchPage = async (page) => {
    // The cards in the page's own language: the address decided it (decision 0143), not a cookie the API would read.
    const res = await fetch(`/api/news?page=${page}&lang=${doc.documentElement.lang}`, { headers: { Accept: "text/html" } });
    if (!res.ok) throw Object.assign(new Error(`HTTP ${res.status}`), { status: res.status });
    const html = doc.createElement("template");
    html.innerHTML = await res.text();
    return html;
  };

  /** @param {number} page */
  const withRetry = async (page) => {
    for (let n = 1; ; n++) {
      try {
        return await fetchPage(page);
      } catch (error) {
        const status = /** @type {{ status?: number }} */ (error).status;
        // A 4xx other than a timeout or a rate limit will not get better by asking again.
        if (n >= 3 || (status && status < 500 && status !== 408 && status !== 429)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** (n - 1), 30_000)));
      }
    }
  };

  const loadMore = async ({ retrying = false } = {}) => {
    if (inFlight || (halted && !retrying)) return;
    inFlight = true;
    halted = false;
    const next = last + 1;
    errorBox?.remove();
    errorBox = null;
    // Asked first, then shown as loading: the guard above, not the disabled button, is what keeps a tap and
    // the scroll arriving together to one request.
    const asked = withRetry(next);
    setState("loading");
    try {
      const answer = /** @type {HTMLElement} */ ((await asked).content.firstElementChild);
      last = next;
      pageInput.value = String(next + 1);
      const seen = new Set([...list.querySelectorAll('[data-testid="news-card"] a[href]')].map((a) => a.getAttribute("href")));
      for (const card of [...answer.querySelectorAll('[data-testid="news-card"]')]) {
        const href = card.querySelector("a[href]")?.getAttribute("href");
        if (!seen.has(href ?? null)) list.append(card);
      }
      halted = answer.dataset.hasMore !== "true";
      if (halted) controls.prepend(fromTemplate("end"));
      setState(halted ? "end" : "idle");
    } catch (error) {
      // Retries spent: the scroll stops (spec §4) and the reader decides when to try again.
      halted = true;
      errorBox = fromTemplate("error");
      /** @type {HTMLElement} */ (errorBox.querySelector("p + p")).textContent = error instanceof Error ? error.message : String(error);
      errorBox.querySelector("button")?.addEventListener("click", () => void loadMore({ retrying: true }));
      controls.prepend(errorBox);
      setState("error");
    } finally {
      inFlight = false;
    }
  };

  // Without JavaScript the form asks the server for ?page=N; here the same button loads the next page in place.
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void loadMore();
  });
  if (list.dataset.state === "idle") setState("idle");
}
