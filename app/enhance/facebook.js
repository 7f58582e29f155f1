// @ts-check
/**
 * /facebook without React (issue 30; docs/decisions/0131-public-pages-without-hydration.md): the load-more
 * link (`?cursor=`, which works without JavaScript) fetches the next page as the server renders it and
 * appends its posts in place, each once, with that page's own load-more link or end. A page that fails
 * (the network, the feed's error, an error page) says so under the posts, and the link, kept, tries again.
 * The feed says what it does as data-state (list, loading-more) and aria-busy; strings are the page's own.
 */
const doc = document;
const feed = /** @type {HTMLElement | null} */ (doc.querySelector('[data-testid="social-feed"]'));
let busy = false;

/** @param {HTMLElement} controls @param {string} name */
const fromTemplate = (controls, name) =>
  /** @type {HTMLElement} */ (
    /** @type {HTMLTemplateElement} */ (controls.querySelector(`template[data-social="${name}"]`)).content.firstElementChild?.cloneNode(true)
  );

doc.addEventListener("click", async (event) => {
  const link = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (event.target).closest?.('[data-testid="social-load-more"]'));
  const controls = /** @type {HTMLElement | null} */ (link?.closest("[data-social-controls]"));
  if (!feed || !link || !controls || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  if (busy) return;
  busy = true;
  controls.querySelector('[data-testid="social-more-error"]')?.remove();
  link.remove();
  const loading = fromTemplate(controls, "loading");
  controls.prepend(loading);
  feed.dataset.state = "loading-more";
  feed.setAttribute("aria-busy", "true");
  /** @type {string | null} */
  let problem = null;
  try {
    const res = await fetch(link.href, { headers: { Accept: "text/html" } });
    const page = new DOMParser().parseFromString(await res.text(), "text/html");
    const next = page.querySelector('[data-testid="social-feed"]');
    const state = next?.getAttribute("data-state");
    if (!next || !res.ok || state === "error" || state === "off") {
      problem =
        state === "off"
          ? controls.dataset.notConfigured || ""
          : page.querySelector('[data-testid="social-error-message"]')?.textContent || `HTTP ${res.status}`;
    } else {
      const posts = feed.querySelector('[data-testid="social-posts"]');
      const seen = new Set([...feed.querySelectorAll("[data-post-id]")].map((p) => p.getAttribute("data-post-id")));
      for (const post of [...next.querySelectorAll("[data-post-id]")])
        if (!seen.has(post.getAttribute("data-post-id"))) posts?.append(doc.importNode(post, true));
      const nextControls = next.querySelector("[data-social-controls]");
      if (nextControls) controls.replaceWith(doc.importNode(nextControls, true));
    }
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  loading.remove();
  if (problem !== null) {
    const box = fromTemplate(controls, "error");
    /** @type {HTMLElement} */ (box.querySelector("p + p")).textContent = problem;
    link.textContent = link.dataset.labelRetry || link.textContent;
    controls.prepend(box, link);
  }
  feed.dataset.state = "list";
  feed.setAttribute("aria-busy", "false");
  busy = false;
});
