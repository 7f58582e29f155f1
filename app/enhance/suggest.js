// @ts-check
/**
 * Suggestions as you type in the header's search field (decision 0128): loaded on the field's first focus, by
 * reading.js on static pages and by header.tsx on hydrated ones. An ARIA 1.2 combobox with a listbox: arrows move,
 * Enter opens the one chosen (else the form searches), Escape closes. Words come from the field's data-*.
 * Served as it is: keep it under 2 KB gzip (suggest.test.ts).
 */
/** @param {HTMLInputElement} input */
export function attach(input) {
  if (input.dataset.combobox) return;
  const d = input.dataset;
  d.combobox = "1";
  const doc = document;
  const id = input.id + "-list";
  const list = doc.createElement("ul");
  list.id = id;
  list.hidden = true;
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", d.suggestLabel || "");
  list.className = "absolute inset-x-0 top-full z-50 mx-auto max-w-3xl border border-sand-200 bg-white shadow-lg";
  list.dataset.testid = "search-suggestions";
  input.form?.after(list);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", id);
  input.setAttribute("aria-expanded", "false");
  /** @type {{ url: string }[]} */
  let items = [];
  let active = -1;
  /** @type {number | undefined} */
  let timer;
  /** @type {AbortController | undefined} */
  let pending;

  /** @param {number} i */
  const choose = (i) => {
    active = i;
    [...list.children].forEach((li, n) => {
      li.setAttribute("aria-selected", String(n === i));
      li.classList.toggle("bg-sand-100", n === i);
    });
    if (i < 0) input.removeAttribute("aria-activedescendant");
    else input.setAttribute("aria-activedescendant", `${id}-${i}`);
  };
  /** @param {boolean} open */
  const show = (open) => {
    list.hidden = !open;
    input.setAttribute("aria-expanded", String(open));
    if (!open) choose(-1);
  };
  /** @param {{ kind: string, label: string, url: string }[]} found */
  const fill = (found) => {
    items = found;
    choose(-1);
    list.replaceChildren(
      ...found.map((s, i) => {
        const li = doc.createElement("li");
        li.id = `${id}-${i}`;
        li.setAttribute("role", "option");
        li.className = "cursor-pointer px-4 py-2";
        li.textContent = s.kind === "tag" ? `${d.suggestTag} · ${s.label}` : s.label;
        li.addEventListener("click", () => location.assign(s.url));
        return li;
      }),
    );
    show(found.length > 0);
  };
  const ask = async () => {
    const q = input.value;
    pending?.abort();
    if (q.trim().length < 2) return fill([]);
    pending = new AbortController();
    try {
      const res = await fetch(`/api/search/suggest?lang=${doc.documentElement.lang}&q=${encodeURIComponent(q)}`, { signal: pending.signal });
      fill(res.ok ? (await res.json()).suggestions : []);
    } catch {
      // Aborted by the next key, or offline: the form still searches.
    }
  };

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = window.setTimeout(ask, 150);
  });
  input.addEventListener("keydown", (event) => {
    const n = items.length;
    const key = event.key;
    if (key === "ArrowDown" || key === "ArrowUp") {
      if (!n) return;
      event.preventDefault();
      if (list.hidden) show(true);
      choose(key === "ArrowDown" ? (active + 1) % n : active < 1 ? n - 1 : active - 1);
    } else if (key === "Enter" && !list.hidden && active >= 0) {
      event.preventDefault();
      location.assign(items[active].url);
    } else if (key === "Escape" && !list.hidden) {
      event.preventDefault();
      show(false);
    }
  });
  // A click on a suggestion must not blur the field first (which closes the list).
  list.addEventListener("mousedown", (event) => event.preventDefault());
  input.addEventListener("blur", () => show(false));
}
