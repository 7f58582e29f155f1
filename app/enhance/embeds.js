// @ts-check
/**
 * Embeds that ask first (issue 46, docs/decisions/0150-embeds-ask-first.md): a body's placeholders (domain/embeds.ts)
 * get their button, which frames the service's player in the placeholder's box, with the frame's address, name and
 * classes the server wrote on the figure. Nothing of the service's is requested before that click. Imported by
 * app/enhance/reading.js only on a page that has an embed, so every other page pays nothing for it; without
 * JavaScript the button stays hidden and the link to the post remains.
 */
const doc = document;
for (const button of doc.querySelectorAll("button[data-embed-load]")) /** @type {HTMLButtonElement} */ (button).hidden = false;
doc.addEventListener("click", (event) => {
  const figure = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest?.("button[data-embed-load]")?.closest("[data-embed-src]"));
  const box = figure?.firstElementChild;
  if (!figure || !box) return;
  const frame = doc.createElement("iframe");
  const d = figure.dataset;
  frame.src = d.embedSrc || "";
  frame.title = d.embedTitle || "";
  frame.className = d.frameClass || "";
  frame.referrerPolicy = "strict-origin-when-cross-origin";
  frame.allow = "encrypted-media; picture-in-picture; fullscreen";
  frame.allowFullscreen = true;
  box.replaceChildren(frame);
  d.state = "loaded";
  frame.focus();
});
