// @ts-check
/**
 * What a reading page that does not hydrate (app/lib/static-page.ts) does with JavaScript, in place of React:
 * the header's search field and menus, the share button, toasts, the logo's fallback and the stored language.
 * Every string comes from the page's own HTML (data-* attributes written by the server in the page's language),
 * so no translation file travels. Served as it is (a fingerprinted asset), hence plain JavaScript.
 * The same behaviour on hydrated pages is React's (header.tsx, share-button.tsx, toast.tsx, root.tsx).
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
const searchButton = doc.querySelector('[data-testid="search-button"]');
const searchPanel = doc.getElementById("site-search");
if (searchButton && searchPanel) {
  // With JavaScript the search link opens the field in the header instead of going to /search.
  searchButton.setAttribute("role", "button");
  searchButton.setAttribute("aria-controls", "site-search");
  searchButton.setAttribute("aria-expanded", "false");
  searchButton.addEventListener("click", (event) => {
    event.preventDefault();
    const open = searchPanel.hidden;
    searchPanel.hidden = !open;
    searchButton.setAttribute("aria-expanded", String(open));
    if (open) /** @type {HTMLInputElement | null} */ (searchPanel.querySelector("input"))?.focus();
  });
}

// Suggestions as you type: their module (app/enhance/suggest.js) is loaded on the field's first focus.
doc.addEventListener("focusin", (event) => {
  const field = /** @type {HTMLInputElement} */ (event.target);
  const src = field.dataset?.suggestSrc;
  if (src)
    import(src).then(
      (m) => m.attach(field),
      () => {},
    );
});

const menu = /** @type {HTMLDetailsElement | null} */ (doc.querySelector('[data-testid="menu-button"]')?.closest("details") ?? null);
const menuButton = /** @type {HTMLElement | null} */ (doc.querySelector('[data-testid="menu-button"]'));
function syncMenuButton() {
  if (!menu || !menuButton) return;
  menuButton.setAttribute("aria-expanded", String(menu.open));
  const label = menu.open ? menuButton.dataset.labelClose : menuButton.dataset.labelOpen;
  if (label) menuButton.setAttribute("aria-label", label);
}
menu?.addEventListener("toggle", syncMenuButton);
syncMenuButton();

doc.addEventListener("keydown", (event) => {
  if (event.key === "F8" && region) {
    event.preventDefault();
    region.focus();
    return;
  }
  if (event.key !== "Escape" || event.defaultPrevented) return;
  if (region?.contains(doc.activeElement)) return dismissToast();
  // Escape closes an open menu of the header (the phone menu, "more") and gives focus back to its button.
  for (const details of doc.querySelectorAll('[data-testid="site-header"] details[open]')) {
    /** @type {HTMLDetailsElement} */ (details).open = false;
    /** @type {HTMLElement | null} */ (details.querySelector("summary"))?.focus();
  }
  // The details' toggle event comes a task later: the button says "closed" as soon as the menu is.
  syncMenuButton();
});

/* ---- pictures with a fallback of their own: the logo (then only the name), a social post's (then the cover) ---- */
/** @param {HTMLImageElement} img */
function fallBack(img) {
  const fallback = img.dataset.fallbackSrc;
  if (fallback && img.getAttribute("src") !== fallback) img.src = fallback;
  else if (img.closest('[data-testid="site-logo"]')) img.remove();
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

/* ---- share: the device's share sheet where there is one (phones), else the link copied ---- */
for (const button of doc.querySelectorAll('[data-testid="share-button"]')) {
  const data = /** @type {HTMLElement} */ (button).dataset;
  button.addEventListener("click", async () => {
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
}

/* ---- the language: a choice stored in the browser comes first when the cookie is gone (as root.tsx) ---- */
const COOKIE = "i18nextLng";
const hasCookie = () => doc.cookie.split(";").some((c) => c.trim().startsWith(`${COOKIE}=`));
try {
  const lang = root.lang;
  const stored = localStorage.getItem(COOKIE);
  if (!hasCookie() && (stored === "ar" || stored === "fr" || stored === "en") && stored !== lang) {
    doc.cookie = `${COOKIE}=${stored}; path=/; max-age=31536000; samesite=lax${location.protocol === "https:" ? "; secure" : ""}`;
    if (hasCookie()) location.reload();
  } else if (stored !== lang) localStorage.setItem(COOKIE, lang);
} catch {
  // Storage can be unavailable (private mode, blocked cookies); the cookie still carries the choice.
}

// The page is interactive (the browser tests wait for this, as on hydrated pages) once the page's own
// enhancement modules, which run after this one and before DOMContentLoaded, have run too.
// A module script runs with readyState already "interactive", before DOMContentLoaded: wait for that event (or
// "load", should it have passed), not for "loading" to end.
const interactive = () => root.dataset.hydrated || (root.dataset.hydrated = "true");
if (doc.readyState === "complete") interactive();
else {
  doc.addEventListener("DOMContentLoaded", interactive, { once: true });
  addEventListener("load", interactive, { once: true });
}
