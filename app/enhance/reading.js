// @ts-check
/**
 * The site's behaviours that every page has: the header's search field and menus, the share button, toasts, the
 * logo's fallback and the stored language. Their one implementation (docs/decisions/0133): loaded by every page,
 * the static reading pages and the React application (account pages, back-office) alike, whose components render
 * the markup and hand toasts over with an `app:toast` event (app/components/ui/toast.tsx). So it listens on the
 * document rather than on elements React may render again. Every string comes from the page's own HTML (data-*
 * attributes written by the server in the page's language), so no translation file travels. Served as it is (a
 * fingerprinted asset), hence plain JavaScript.
 */
const doc = document;
const root = doc.documentElement;

/* ---- toasts (public-site.md §4, §9): one at a time, 3 s, close button, F8 to reach them, Escape there ---- */
const region = /** @type {HTMLElement | null} */ (doc.querySelector('[data-testid="toast-region"]'));
const VARIANT_CLASS = {
  default: "bg-white text-ink border-sand-300",
  success: "bg-white text-ink border-palm-600",
  warning: "bg-amber-50 text-amber-950 border-amber-400",
  destructive: "bg-red-700 text-white border-red-800",
};
/** @type {{ el: HTMLElement, timer: number } | null} */
let shown = null;

function dismissToast() {
  if (!shown) return;
  clearTimeout(shown.timer);
  shown.el.remove();
  shown = null;
}

/** @param {{ title: string, description?: string, variant?: keyof typeof VARIANT_CLASS, duration?: number }} toast */
function showToast({ title, description, variant = "default", duration = 3000 }) {
  if (!region) return;
  dismissToast();
  const el = doc.createElement("div");
  el.dataset.testid = "toast";
  el.dataset.variant = variant;
  el.className = `pointer-events-auto flex items-start gap-3 rounded-lg border border-s-4 px-4 py-3 shadow-lg transition-transform ${VARIANT_CLASS[variant]}`;
  const body = doc.createElement("div");
  body.className = "flex-1";
  const heading = doc.createElement("p");
  heading.className = "font-bold";
  heading.textContent = title;
  body.append(heading);
  if (description) {
    const text = doc.createElement("p");
    text.className = "mt-1 text-sm opacity-90";
    text.textContent = description;
    body.append(text);
  }
  const close = doc.createElement("button");
  close.type = "button";
  close.textContent = "×";
  close.setAttribute("aria-label", region.dataset.closeLabel || "×");
  close.className = "-me-1 rounded px-1 text-lg leading-none opacity-70 hover:opacity-100";
  close.addEventListener("click", dismissToast);
  el.append(body, close);
  const live = region.querySelector(variant === "destructive" ? '[aria-live="assertive"]' : '[role="status"]');
  live?.append(el);
  const current = { el, timer: window.setTimeout(dismissToast, duration) };
  shown = current;
  const pause = () => clearTimeout(current.timer);
  const resume = () => (current.timer = window.setTimeout(dismissToast, duration));
  // Hovering keeps it, and a 50 px swipe towards the reading end dismisses it, as the app's toast does.
  /** @type {number | null} */
  let start = null;
  let offset = 0;
  const sign = root.dir === "rtl" ? -1 : 1;
  el.style.touchAction = "pan-y";
  el.addEventListener("mouseenter", pause);
  el.addEventListener("mouseleave", () => start === null && resume());
  el.addEventListener("pointerdown", (event) => {
    start = event.clientX;
    pause();
    el.setPointerCapture?.(event.pointerId);
  });
  el.addEventListener("pointermove", (event) => {
    if (start === null) return;
    offset = Math.max(0, (event.clientX - start) * sign) * sign;
    el.style.transform = offset ? `translateX(${offset}px)` : "";
  });
  const end = () => {
    if (start === null) return;
    start = null;
    if (Math.abs(offset) >= 50) return dismissToast();
    offset = 0;
    el.style.transform = "";
    resume();
  };
  el.addEventListener("pointerup", end);
  el.addEventListener("pointercancel", end);
}

/** @param {HTMLElement} el */
const toastOf = (el) => ({
  title: el.dataset.toastTitle || "",
  description: el.dataset.toastDescription,
  variant: /** @type {keyof typeof VARIANT_CLASS} */ (el.dataset.toastVariant || "default"),
  duration: Number(el.dataset.toastDuration) || undefined,
});

// The page's own enhancement modules (app/enhance/*.js) say things through these toasts:
// dispatchEvent(new CustomEvent("app:toast", { detail: element with data-toast-* | { title, description, variant, duration } })).
doc.addEventListener("app:toast", (event) => {
  const detail = /** @type {CustomEvent} */ (event).detail;
  showToast(detail instanceof HTMLElement ? toastOf(detail) : detail);
});

// Buttons that only say something (the footer's networks without an address), and links that say where they
// went (a media file opened in a new window, /media).
doc.addEventListener("click", (event) => {
  const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest?.("button[data-toast-title], a[data-toast-title]"));
  if (button) showToast(toastOf(button));
});

// A notice the server put in the page (?notice=…): said once, then the address tidied.
const notice = /** @type {HTMLElement | null} */ (doc.querySelector("[data-notice][data-toast-title]"));
if (notice) {
  showToast(toastOf(notice));
  const url = new URL(location.href);
  url.searchParams.delete("notice");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}

/* ---- the header ---- */
// With JavaScript the search link opens the field in the header instead of going to /search.
/** @param {Element} opener */
function markOpener(opener) {
  opener.setAttribute("role", "button");
  opener.setAttribute("aria-controls", /** @type {string} */ (opener.getAttribute("data-opens")));
  if (!opener.hasAttribute("aria-expanded")) opener.setAttribute("aria-expanded", "false");
}
for (const opener of doc.querySelectorAll("a[data-opens]")) markOpener(opener);
doc.addEventListener("click", (event) => {
  const opener = /** @type {Element} */ (event.target).closest?.("a[data-opens]");
  const panel = opener && doc.getElementById(/** @type {string} */ (opener.getAttribute("data-opens")));
  if (!opener || !panel) return;
  event.preventDefault();
  markOpener(opener);
  const open = panel.hidden;
  panel.hidden = !open;
  opener.setAttribute("aria-expanded", String(open));
  if (open) /** @type {HTMLInputElement | null} */ (panel.querySelector("input"))?.focus();
});

// Suggestions as you type: their module (app/enhance/suggest.js) is loaded on the field's first focus; so are the
// forms' checks and in-place answers (app/enhance/forms.js) for a form every page has (the footer's sign-up), except
// in the React application, whose pages React renders again (there the form posts as it does without JavaScript).
doc.addEventListener("focusin", (event) => {
  const field = /** @type {HTMLInputElement} */ (event.target);
  const src = field.dataset?.suggestSrc;
  if (src)
    import(src).then(
      (m) => m.attach(field),
      () => {},
    );
  const forms = /** @type {HTMLElement | null} */ (field.closest?.("form[data-enhance-src]"))?.dataset.enhanceSrc;
  if (forms && !doc.body.hasAttribute("data-app")) import(forms).catch(() => {});
});

const HEADER_MENUS = '[data-testid="site-header"] details';
/** The phone menu's button says whether it is open, in the page's language. @param {HTMLDetailsElement} menu */
function syncMenuButton(menu) {
  const button = /** @type {HTMLElement | null} */ (menu.querySelector('summary[data-testid="menu-button"]'));
  if (!button) return;
  button.setAttribute("aria-expanded", String(menu.open));
  const label = menu.open ? button.dataset.labelClose : button.dataset.labelOpen;
  if (label) button.setAttribute("aria-label", label);
}
/** @param {{ focus?: boolean }} [options] */
function closeHeaderMenus({ focus = false } = {}) {
  for (const details of doc.querySelectorAll(`${HEADER_MENUS}[open]`)) {
    /** @type {HTMLDetailsElement} */ (details).open = false;
    if (focus) /** @type {HTMLElement | null} */ (details.querySelector("summary"))?.focus();
  }
  // The details' toggle event comes a task later: the button says "closed" as soon as the menu is.
  for (const details of doc.querySelectorAll(HEADER_MENUS)) syncMenuButton(/** @type {HTMLDetailsElement} */ (details));
}
// toggle does not bubble: caught on its way down.
doc.addEventListener(
  "toggle",
  (event) => {
    const details = /** @type {HTMLElement} */ (event.target);
    if (details.matches?.(HEADER_MENUS)) syncMenuButton(/** @type {HTMLDetailsElement} */ (details));
  },
  true,
);
for (const details of doc.querySelectorAll(HEADER_MENUS)) syncMenuButton(/** @type {HTMLDetailsElement} */ (details));
// A link followed from a menu, or a move back or forward in the application, closes the menus.
doc.addEventListener("click", (event) => {
  if (/** @type {Element} */ (event.target).closest?.(`${HEADER_MENUS} a[href]`)) closeHeaderMenus();
});
addEventListener("popstate", () => closeHeaderMenus());

doc.addEventListener("keydown", (event) => {
  if (event.key === "F8" && region) {
    event.preventDefault();
    region.focus();
    return;
  }
  if (event.key !== "Escape" || event.defaultPrevented) return;
  if (region?.contains(doc.activeElement)) return dismissToast();
  // Escape closes an open menu of the header (the phone menu, "more") and gives focus back to its button.
  closeHeaderMenus({ focus: true });
});

/* ---- pictures with a fallback of their own: the logo (then only the name), a social post's (then the cover) ---- */
/** @param {HTMLImageElement} img */
function fallBack(img) {
  const fallback = img.dataset.fallbackSrc;
  if (fallback && img.getAttribute("src") !== fallback) img.src = fallback;
  // Hidden rather than removed: on a page React hydrates, the element must still be where React rendered it.
  else if (img.closest('[data-testid="site-logo"]')) img.hidden = true;
}
doc.addEventListener(
  "error",
  (event) => {
    const img = /** @type {HTMLElement} */ (event.target);
    if (img.tagName === "IMG" && img.dataset.fallbackSrc) fallBack(/** @type {HTMLImageElement} */ (img));
  },
  true,
);
// Those that failed before this script ran have no error event left to catch.
for (const img of doc.querySelectorAll("img[data-fallback-src]")) {
  const picture = /** @type {HTMLImageElement} */ (img);
  if (picture.complete && picture.naturalWidth === 0 && picture.getAttribute("src")) fallBack(picture);
}

/* ---- embeds that ask first (decision 0150): their module (app/enhance/embeds.js), only on a page that has one ---- */
const embeds = /** @type {HTMLElement | null} */ (doc.querySelector("[data-embed-script]"))?.dataset.embedScript;
if (embeds) import(embeds).catch(() => {});

/* ---- share: the device's share sheet where there is one (phones), else the link copied ---- */
doc.addEventListener("click", async (event) => {
  const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest?.('[data-testid="share-button"]'));
  if (!button) return;
  const data = button.dataset;
  const url = new URL(data.url || location.pathname, location.origin).toString();
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: data.title, text: data.text || undefined, url });
      return;
    } catch (error) {
      if (/** @type {DOMException} */ (error)?.name === "AbortError") return;
      // Refused: copy instead.
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    showToast({ title: data.copiedTitle || "", description: data.copiedText, variant: "success" });
  } catch {
    showToast({ title: data.copyFailed || "", description: url, variant: "warning", duration: 6000 });
  }
});

/* ---- the language: the address decides it (issue 42); the toggle's choice is kept for the bare entry `/` ---- */
// The toggle is a plain link to the page's address in the other language. Its choice is stored as it is followed,
// so that the server's redirect at `/` (server/http/language.server.ts) brings the reader back to that language;
// a deep link never looks at it. Without JavaScript the link still works, only the choice is not kept.
const LANGUAGE_KEY = "i18nextLng";
doc.addEventListener("click", (event) => {
  const toggle = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest?.("a[data-language-toggle]"));
  const lang = toggle?.dataset.languageToggle;
  if (lang !== "ar" && lang !== "fr" && lang !== "en") return;
  doc.cookie = `${LANGUAGE_KEY}=${lang}; path=/; max-age=31536000; samesite=lax${location.protocol === "https:" ? "; secure" : ""}`;
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    // Storage can be unavailable (private mode); the cookie carries the choice.
  }
});

/* ---- views (decisions 0145, 0147): the page names itself (an item's "type:id", else its page key), counted once per
   load, once shown, with its language, referrer and utm_ tags (the search page: its query and number of results);
   never for a reader who asked not to be followed. app/lib/view-beacon.ts sends the same from the application. ---- */
const view = doc.querySelector('meta[name="sahara-view"]')?.getAttribute("content")?.split(":");
const nav = /** @type {Navigator & { globalPrivacyControl?: boolean }} */ (navigator);
const countView = () => {
  const params = new URLSearchParams(location.search);
  const results = doc.querySelector('meta[name="sahara-search"]')?.getAttribute("content");
  const q = params.get("q")?.trim().slice(0, 100);
  const camp = params.get("utm_campaign");
  /** @type {Record<string, unknown>} */
  const beacon = view?.[1] ? { type: view[0], id: +view[1] } : { page: view?.[0] };
  beacon.lang = root.lang;
  if (doc.referrer) beacon.ref = doc.referrer.slice(0, 500);
  if (params.get("utm_source")) beacon.src = params.get("utm_source")?.slice(0, 40);
  if (camp && /^[\w.-]{1,64}$/.test(camp)) beacon.camp = camp;
  if (results && q) Object.assign(beacon, { q, n: +results });
  nav.sendBeacon("/api/views", JSON.stringify(beacon));
};
if (!view || nav.doNotTrack === "1" || nav.globalPrivacyControl) {
  /* nothing to count, or not to be counted */
} else if (/** @type {{ prerendering?: boolean }} */ (doc).prerendering) doc.addEventListener("prerenderingchange", countView, { once: true });
else countView();

// The page is interactive (the browser tests wait for this, as on hydrated pages) once the page's own
// enhancement modules, which run after this one and before DOMContentLoaded, have run too.
// A module script runs with readyState already "interactive", before DOMContentLoaded: wait for that event (or
// "load", should it have passed), not for "loading" to end.
// On the React application's pages (body[data-app]) React says so itself once it has hydrated (root.tsx).
const interactive = () => root.dataset.hydrated || (root.dataset.hydrated = "true");
if (doc.body.hasAttribute("data-app")) {
  /* React's to say */
} else if (doc.readyState === "complete") interactive();
else {
  doc.addEventListener("DOMContentLoaded", interactive, { once: true });
  addEventListener("load", interactive, { once: true });
}
