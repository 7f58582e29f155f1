// @ts-check
/**
 * The players a reader opens (app/components/media/video-player.tsx, decision 0132): a link or button carrying
 * `data-video` (what to play, from the server) opens the modal player, a <dialog> cloned from the page's
 * `template[data-video-modal]` and opened with showModal() (top layer, the page behind inert, Escape), focus on
 * its close button and back on the opener when it closes; a `[data-video-toggle]` plays the video inline in
 * place of its card's picture, and the end of the video turns it off. The player itself is app/enhance/player.js
 * (the same module instance: the page loads it too, and `import()` of the same URL answers it); the empty player
 * is cloned from `template[data-video-player]`, whose `data-module` names it. Served as it is, hence plain JavaScript.
 */
const doc = document;

/** @returns {Promise<typeof import("./player.js")>} */
const playerModule = () => import(/* @vite-ignore */ /** @type {HTMLElement} */ (doc.querySelector("template[data-video-player]"))?.dataset.module || "");

/** @type {WeakMap<HTMLElement, () => void>} */
const stops = new WeakMap();

/** A fresh player from the page's `template[data-video-player]`, set to play what `start` says. @param {string} start @param {string} title @param {string} [poster] */
function newPlayer(start, title, poster) {
  const template = /** @type {HTMLTemplateElement | null} */ (doc.querySelector("template[data-video-player]"));
  // A template React created in the browser keeps its children on the element, not in `content`.
  const model = template && (template.content.firstElementChild ?? template.firstElementChild);
  if (!model) return null;
  const box = /** @type {HTMLElement} */ (model.cloneNode(true));
  box.dataset.start = start;
  box.dataset.labelTitle = title || box.dataset.labelTitle || "";
  const video = box.querySelector("video");
  if (video) {
    if (title) video.setAttribute("aria-label", title);
    if (poster) video.poster = poster;
  }
  return box;
}

/* ---- the modal player: a <dialog> opened with showModal() (top layer, inert page, Escape), focus kept and returned ---- */
/** @param {HTMLElement} opener */
function openModal(opener) {
  const template = /** @type {HTMLTemplateElement | null} */ (doc.querySelector("template[data-video-modal]"));
  const model = template && (template.content.firstElementChild ?? template.firstElementChild);
  const title = opener.dataset.videoTitle || "";
  const player = newPlayer(opener.dataset.video || "{}", title, opener.dataset.videoPoster);
  if (!model || !player) return;
  const dialog = /** @type {HTMLDialogElement} */ (model.cloneNode(true));
  const heading = dialog.querySelector("h2");
  if (heading && title) heading.textContent = title;
  dialog.querySelector("[data-player-slot]")?.replaceWith(player);
  const scroll = doc.documentElement.style.overflow;
  doc.body.append(dialog);
  dialog.showModal();
  /** @type {HTMLElement | null} */ (dialog.querySelector('[data-testid="video-modal-close"]'))?.focus();
  doc.documentElement.style.overflow = "hidden";
  /** @type {(() => void) | null} */
  let stop = null;
  let closed = false;
  playerModule().then(({ enhancePlayer }) => {
    if (!closed) stop = enhancePlayer(player, { autoPlay: true });
  });
  const close = () => {
    if (closed) return;
    closed = true;
    stop?.();
    doc.documentElement.style.overflow = scroll;
    if (dialog.open) dialog.close();
    dialog.remove();
    // Back to the control that opened the dialog, so keyboard readers keep their place.
    if (opener.isConnected) opener.focus();
  };
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    close();
  });
  // Escape pressed anywhere in the dialog, the video's own controls included, closes it here rather than through the
  // browser's close request, which Chromium may not make from a media element's controls.
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    event.preventDefault();
    close();
  });
  dialog.addEventListener("click", (event) => {
    // The close button, or the backdrop (a click there lands on the dialog element itself).
    const target = /** @type {Element} */ (event.target);
    if (target === dialog || target.closest('[data-testid="video-modal-close"]')) close();
  });
}

/* ---- a card's inline player: the toggle swaps the picture for the player and back; the end of the video turns it off ---- */
const PLAY_ICON = "M8 5v14l11-7z";
const PAUSE_ICON = "M6 5h4v14H6zm8 0h4v14h-4z";

/** @param {HTMLElement} toggle */
function toggleInline(toggle) {
  const frame = doc.getElementById(toggle.getAttribute("aria-controls") || "");
  const card = toggle.closest("article");
  if (!frame) return;
  const label = /** @type {HTMLElement | null} */ (toggle.querySelector("[data-label]"));
  const icon = toggle.querySelector("path");
  /** @param {boolean} on */
  const show = (on) => {
    toggle.setAttribute("aria-expanded", String(on));
    if (card) card.dataset.playing = String(on);
    if (label) label.textContent = (on ? toggle.dataset.labelHide : toggle.dataset.labelPlay) || "";
    icon?.setAttribute("d", on ? PAUSE_ICON : PLAY_ICON);
  };
  const playing = /** @type {HTMLElement | null} */ (frame.querySelector(":scope > [data-player]"));
  if (playing) {
    stops.get(playing)?.();
    playing.remove();
    for (const child of frame.children) /** @type {HTMLElement} */ (child).hidden = false;
    return show(false);
  }
  const player = newPlayer(toggle.dataset.video || "{}", toggle.dataset.videoTitle || "", toggle.dataset.videoPoster);
  if (!player) return;
  player.classList.remove("rounded-lg");
  for (const child of frame.children) /** @type {HTMLElement} */ (child).hidden = true;
  frame.append(player);
  show(true);
  playerModule().then(({ enhancePlayer }) => {
    if (!player.isConnected) return;
    stops.set(
      player,
      enhancePlayer(player, {
        autoPlay: true,
        onEnded: () => {
          if (player.isConnected) toggleInline(toggle);
        },
      }),
    );
  });
}

let delegated = false;
/** One listener on the document for every opener and toggle, whenever they were added. */
export function enhance() {
  if (delegated) return;
  delegated = true;
  doc.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const target = /** @type {Element} */ (event.target);
    const toggle = /** @type {HTMLElement | null} */ (target.closest?.("[data-video-toggle]"));
    const opener = /** @type {HTMLElement | null} */ (target.closest?.("[data-video]"));
    if (!toggle && !opener) return;
    event.preventDefault();
    if (toggle) toggleInline(toggle);
    else if (opener) openModal(opener);
  });
}

// The static document: now. An app page calls enhance() itself (app/lib/enhance-in-app.ts).
if (!("__reactRouterContext" in window)) enhance();
