// @ts-check
/**
 * The public pages' forms without React (issue 30; docs/decisions/0131-public-pages-without-hydration.md): the
 * contact form, the opinion page's two, and every page's footer sign-up (issue 46: loaded by app/enhance/reading.js
 * when that form is first focused). For every `form[data-enhance]`:
 * - checks in the page before sending, with the rules the server's schema applies (required, the length
 *   limits, the e-mail pattern of domain/schemas/shared.ts) and the server's own messages, written by the
 *   server in the page's language on each control (`data-msg-*`, app/components/forms/field.tsx); once a
 *   message shows, the fields showing one and the one being changed are checked again as the reader types;
 * - sends the form as the browser would (the same POST), and puts the server's answer in place of the form's
 *   region (`[data-form-region]`): the server renders the field messages and outcome once, for both ways;
 *   what was typed is kept when the answer is a refusal; an answer marked `data-answer` is told as a toast;
 * - a send that gets no page back (the network down, an error page) is the form's failure toast
 *   (`data-failed-title`, `data-failed-text`), with everything typed kept.
 * Toasts are reading.js's (the `app:toast` event).
 */
const doc = document;
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** @typedef {HTMLInputElement | HTMLTextAreaElement} Control */
/** @param {unknown} detail */
const toast = (detail) => doc.dispatchEvent(new CustomEvent("app:toast", { detail }));
/** @param {HTMLFormElement} form @returns {Control[]} */
const controlsOf = (form) => [...form.querySelectorAll("[data-msg-required]")].map((c) => /** @type {Control} */ (c));

/** The first rule a control's value breaks, in the schema's order, and its message. @param {Control} c */
function problem(c) {
  const d = c.dataset;
  const value = c.value.trim();
  if (!value) return { rule: "required", message: d.msgRequired || "" };
  if (c.maxLength > 0 && value.length > c.maxLength) return { rule: "tooLong", message: d.msgTooLong || "" };
  if (c.type === "email" && !EMAIL.test(value)) return { rule: "invalid", message: d.msgInvalid || "" };
  if (Number(d.min) > value.length) return { rule: "tooShort", message: d.msgTooShort || "" };
  return null;
}

/** Shows (or clears) a control's message as the field component renders it. @param {Control} c @param {string} message */
function show(c, message) {
  const d = c.dataset;
  const id = `${c.id}-error`;
  const hint = doc.getElementById(`${c.id}-hint`);
  let p = doc.getElementById(id);
  c.classList.replace(message ? d.validClass || "" : d.invalidClass || "", message ? d.invalidClass || "" : d.validClass || "");
  if (message) {
    if (!p) {
      p = doc.createElement("p");
      p.id = id;
      p.className = d.errorClass || "";
      if (d.errorTestid) p.dataset.testid = d.errorTestid;
      c.parentElement?.append(p);
    }
    p.textContent = message;
    c.setAttribute("aria-invalid", "true");
  } else {
    p?.remove();
    c.removeAttribute("aria-invalid");
  }
  if (hint && !("keepHint" in d)) hint.hidden = Boolean(message);
  const described = [message && id, hint && !hint.hidden && hint.id].filter(Boolean).join(" ");
  if (described) c.setAttribute("aria-describedby", described);
  else c.removeAttribute("aria-describedby");
}

/** @param {ParentNode} scope */
const takeOver = (scope) =>
  scope.querySelectorAll("form[data-enhance]").forEach((f) => {
    /** @type {HTMLFormElement} */ (f).noValidate = true;
    // Said on the form: a form whose module is loaded on demand (the footer's sign-up) is taken over from here on.
    /** @type {HTMLFormElement} */ (f).dataset.enhanced = "";
  });
takeOver(doc);

doc.addEventListener("input", (event) => {
  const changed = /** @type {Control} */ (event.target);
  const form = changed.form;
  if (!form?.matches("[data-enhance]") || !form.querySelector("[data-msg-required][aria-invalid]")) return;
  for (const c of controlsOf(form)) if (c === changed || c.hasAttribute("aria-invalid")) show(c, problem(c)?.message || "");
});

doc.addEventListener("submit", (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (!form.matches("form[data-enhance]")) return;
  event.preventDefault();
  const found = [];
  for (const c of controlsOf(form)) {
    const p = problem(c);
    show(c, p?.message || "");
    if (p) found.push({ c, ...p });
  }
  if (!found.length) return void send(form);
  found[0].c.focus();
  const d = form.dataset;
  if (!d.invalidTitle) return;
  const required = found.some((f) => f.rule === "required");
  toast({
    variant: "destructive",
    title: required ? d.requiredTitle : d.invalidTitle,
    description: required ? d.requiredText : found[0].message,
  });
});

/** @param {HTMLFormElement} form */
async function send(form) {
  const region = form.closest("[data-form-region]");
  const button = /** @type {HTMLButtonElement | null} */ (form.querySelector('button[type="submit"]'));
  const label = button?.textContent || "";
  if (button) {
    button.disabled = true;
    button.textContent = button.dataset.pendingLabel || label;
  }
  const typed = new FormData(form);
  /** @type {Element | null} */
  let fresh = null;
  let ok = false;
  try {
    const res = await fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(/** @type {any} */ (typed)),
      headers: { Accept: "text/html" },
    });
    ok = res.ok;
    const page = new DOMParser().parseFromString(await res.text(), "text/html");
    fresh = region && page.querySelector(`[data-form-region="${/** @type {HTMLElement} */ (region).dataset.formRegion}"]`);
  } catch {
    // The network is down: told below, like an answer that is not the page.
  }
  if (!region || !fresh) {
    if (button) {
      button.disabled = false;
      button.textContent = label;
    }
    return toast({ variant: "destructive", title: form.dataset.failedTitle, description: form.dataset.failedText });
  }
  const next = /** @type {HTMLElement} */ (doc.importNode(fresh, true));
  region.replaceWith(next);
  takeOver(next);
  // A refusal keeps what was typed (the server gives it back, or not: the page has it anyway). The footer's sign-up
  // answers a refusal with a redirect to the page, so a field marked invalid is a refusal too.
  if (!ok || next.querySelector("[aria-invalid]"))
    for (const [name, value] of typed) {
      const c = /** @type {Control | null} */ (next.querySelector(`[name="${CSS.escape(name)}"]:not([type="hidden"])`));
      if (c && typeof value === "string") c.value = value;
    }
  for (const answer of next.querySelectorAll("[data-answer]")) {
    const el = /** @type {HTMLElement} */ (answer);
    if (el.dataset.toastTitle) toast(el);
    // Or told by a live region the page keeps outside the region just replaced (the footer's sign-up).
    const live = el.dataset.live && doc.getElementById(el.dataset.live);
    if (live) live.textContent = el.textContent;
    // Said as a toast only (the notice is what a page without JavaScript shows instead).
    if (el.dataset.answer === "toast") el.remove();
  }
  /** @type {HTMLElement | null} */ (
    next.querySelector("[aria-invalid]") || next.querySelector('button[type="submit"]') || next.querySelector("[data-answer][tabindex]")
  )?.focus();
}
