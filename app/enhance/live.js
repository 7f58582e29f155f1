// @ts-check
/**
 * A live coverage's page keeps itself current (issue 44; domain/live.ts has the shapes): the stream of its
 * changes (Server-Sent Events from the list's data-stream, after data-cursor) or, when the server says slow
 * down, answers 503 or keeps failing, the entries' JSON after the cursor every retry_ms while the tab is visible.
 * - a new entry goes at the top of the list when the reader sees the list's start; scrolled down into it, the
 *   entries wait behind the «مستجدات جديدة» button (a count), so what the reader is reading never moves;
 * - edits replace the entry in place, deletions remove it; an entry above the screen that changes height is
 *   compensated by scrolling the same amount (the list has overflow-anchor: none, so the browser does not too);
 * - the end of the live takes the badge off and stops.
 * Entries are rendered from the page's <template data-live-entry> (app/components/content/live/live-entry.tsx):
 * the server's markup, filled in; text is set as text, the body is HTML the server sanitised.
 */
const doc = document;
const list = /** @type {HTMLElement | null} */ (doc.querySelector('[data-testid="live-entries"]'));

if (list && list.dataset.live === "true") {
  const data = list.dataset;
  const section = /** @type {HTMLElement} */ (list.closest("section"));
  const button = /** @type {HTMLButtonElement} */ (section.querySelector('[data-testid="live-new-button"]'));
  const keys = /** @type {HTMLElement} */ (section.querySelector('[data-testid="live-key-events"]'));
  const prefix = data.prefix || "";
  const lang = doc.documentElement.lang;
  // As domain/format.ts's "dateTime" style, in its locale (with DIGITS), so an entry that arrives reads like one the server rendered.
  const dates = new Intl.DateTimeFormat(data.dateLocale || (lang === "ar" ? "ar-SA-u-ca-gregory-nu-latn" : lang === "fr" ? "fr-FR" : "en-GB"), {
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "Africa/Nouakchott",
  });
  const counts = new Intl.NumberFormat(data.numberLocale || lang);
  let cursor = Number(data.cursor) || 0;
  let pollMs = Number(data.pollMs) || 10_000;
  /** @type {Map<number, HTMLElement>} entries waiting behind the button, by id */
  const held = new Map();
  /** @type {EventSource | null} */
  let stream = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let polling = false;
  let failures = 0;
  let ended = false;

  /** @param {ParentNode} root @param {string} part */
  const $ = (root, part) => /** @type {HTMLElement} */ (root.querySelector(`[data-part="${part}"]`));
  /** @param {HTMLElement} el @param {string} iso */
  const setTime = (el, iso) => {
    el.setAttribute("datetime", iso);
    el.textContent = dates.format(new Date(iso));
  };
  /** @param {string} html */
  const textOf = (html) => {
    const t = doc.createElement("template");
    t.innerHTML = html;
    const text = (t.content.textContent || "").replace(/\s+/g, " ").trim();
    return text.length > 140 ? `${text.slice(0, 139)}…` : text;
  };

  /** @param {import("#domain/live.ts").LiveEntry} e */
  const render = (e) => {
    const tpl = /** @type {HTMLTemplateElement} */ (section.querySelector("template[data-live-entry]"));
    const el = /** @type {HTMLElement} */ (/** @type {Element} */ (tpl.content.firstElementChild).cloneNode(true));
    el.id = `entry-${e.id}`;
    el.dataset.entryId = String(e.id);
    el.dataset.version = String(e.version);
    if (!e.pinned) delete el.dataset.pinned;
    if (!e.key_event) delete el.dataset.keyEvent;
    // The border marks pinned and key entries, as the server's classes do.
    el.className = el.className.replace(/border-desert-600 bg-sand-100/, e.pinned ? "$&" : e.key_event ? "border-red-700" : "border-sand-300");
    $(el, "anchor").setAttribute("href", `#${el.id}`);
    setTime($(el, "at"), e.at);
    $(el, "author").textContent = e.author;
    $(el, "body").innerHTML = e.body;
    $(el, "share").setAttribute("href", prefix + e.url);
    const img = /** @type {HTMLImageElement} */ ($(el, "image"));
    if (e.image) {
      img.src = e.image.url;
      img.alt = e.image.alt;
    }
    if (e.embed_url) {
      $(el, "embed").setAttribute("href", e.embed_url);
      let host = e.embed_url;
      try {
        host = new URL(host).hostname.replace(/^www\./, "");
      } catch {
        // Not an address a URL parses: shown as it is.
      }
      $(el, "embed-host").textContent = host;
    }
    if (e.edited_at) setTime($(el, "edited-at"), e.edited_at);
    for (const [part, keep] of /** @type {const} */ ([
      ["pinned", e.pinned],
      ["key", e.key_event],
      ["image", e.image],
      ["video", e.video_id],
      ["embed", e.embed_url],
      ["edited", e.edited_at],
    ]))
      if (!keep) $(el, part).remove();
    return el;
  };

  /** @param {number} id */
  const shown = (id) => /** @type {HTMLElement | null} */ (list.querySelector(`[data-entry-id="${id}"]`));

  /** Runs `change` keeping the first entry on screen where it is (what the reader is reading). @param {() => void} change */
  const keep = (change) => {
    const anchor = [...list.children].find((c) => c.getBoundingClientRect().bottom > 0);
    const before = anchor?.getBoundingClientRect().top;
    change();
    if (anchor?.isConnected && before !== undefined) {
      const moved = anchor.getBoundingClientRect().top - before;
      if (moved) scrollBy(0, moved);
    }
  };

  /** Where an entry goes: the pinned one first, then newest first. @param {HTMLElement} el */
  const place = (el) => {
    const id = Number(el.dataset.entryId);
    const next = el.dataset.pinned
      ? list.firstElementChild
      : [...list.children].find((c) => !(/** @type {HTMLElement} */ (c).dataset.pinned) && Number(/** @type {HTMLElement} */ (c).dataset.entryId) < id);
    list.insertBefore(el, next || null);
  };

  /** The key events' summary follows the entries. @param {import("#domain/live.ts").LiveEntry} e @param {boolean} gone */
  const summary = (e, gone) => {
    const ol = /** @type {HTMLElement} */ (keys.querySelector("ol"));
    ol.querySelector(`[data-key-id="${e.id}"]`)?.remove();
    if (!gone && e.key_event) {
      const tpl = /** @type {HTMLTemplateElement} */ (keys.querySelector("template"));
      const li = /** @type {HTMLElement} */ (/** @type {Element} */ (tpl.content.firstElementChild).cloneNode(true));
      li.dataset.keyId = String(e.id);
      $(li, "key-link").setAttribute("href", `#entry-${e.id}`);
      setTime($(li, "key-at"), e.at);
      $(li, "key-text").textContent = textOf(e.body);
      const after = [...ol.children].find((c) => Number(/** @type {HTMLElement} */ (c).dataset.keyId) < e.id);
      keep(() => ol.insertBefore(li, after || null));
    } else keep(() => {});
    keys.hidden = !ol.children.length;
  };

  const showButton = () => {
    button.hidden = !held.size;
    /** @type {HTMLElement} */ (button.querySelector("[data-count]")).textContent = counts.format(held.size);
  };

  /** A new or changed entry. @param {import("#domain/live.ts").LiveEntry} e */
  const upsert = (e) => {
    cursor = Math.max(cursor, e.version);
    const el = render(e);
    const old = shown(e.id);
    section.querySelector("[data-live-empty]")?.remove();
    if (held.has(e.id)) held.set(e.id, el);
    else if (old) {
      if (Number(old.dataset.version) > e.version) return;
      keep(() => (old.dataset.pinned === el.dataset.pinned ? old.replaceWith(el) : (old.remove(), place(el))));
    } else if (list.getBoundingClientRect().top < 0) held.set(e.id, el);
    else place(el);
    summary(e, false);
    showButton();
  };

  /** @param {number} id */
  const remove = (id) => {
    held.delete(id);
    const el = shown(id);
    if (el) keep(() => el.remove());
    keys.querySelector(`[data-key-id="${id}"]`)?.remove();
    keys.hidden = !keys.querySelector("li[data-key-id]");
    showButton();
  };

  /** @param {import("#domain/live.ts").LiveState} state */
  const status = (state) => {
    if (!state.ended_at) return;
    ended = true;
    stream?.close();
    clearTimeout(timer);
    section.querySelector('[data-testid="live-badge"]')?.remove();
    section.querySelector('[data-testid="live-refresh"]')?.remove();
    /** @type {HTMLElement} */ (section.querySelector("[data-live-ended]")).hidden = false;
    section.dataset.live = data.live = "false";
  };

  button.addEventListener("click", () => {
    for (const el of [...held.values()].sort((a, b) => Number(a.dataset.entryId) - Number(b.dataset.entryId))) place(el);
    held.clear();
    showButton();
    list.scrollIntoView({ block: "start" });
  });

  const poll = async () => {
    clearTimeout(timer);
    if (ended || doc.hidden) return;
    try {
      const res = await fetch(`${data.entries}?after=${cursor}`, { headers: { Accept: "application/json" } });
      if (res.ok) {
        /** @type {import("#domain/live.ts").LiveEntriesAnswer} */
        const answer = await res.json();
        answer.deleted.forEach(remove);
        answer.entries.slice().reverse().forEach(upsert);
        cursor = Math.max(cursor, answer.cursor);
        pollMs = answer.retry_ms || pollMs;
        status(answer);
      }
    } catch {
      // The network failed: the next round asks again.
    }
    if (!ended) timer = setTimeout(poll, pollMs);
  };

  /** @param {number} [ms] */
  const toPolling = (ms) => {
    stream?.close();
    stream = null;
    polling = true;
    if (ms) pollMs = ms;
    timer = setTimeout(poll, pollMs);
  };

  /** @param {string} name @param {(value: any) => void} handle */
  const on = (name, handle) =>
    stream?.addEventListener(name, (event) => {
      const message = /** @type {MessageEvent} */ (event);
      failures = 0;
      cursor = Math.max(cursor, Number(message.lastEventId) || 0);
      handle(JSON.parse(message.data));
    });

  if (typeof EventSource === "function") {
    stream = new EventSource(`${data.stream}?after=${cursor}`);
    on("entry", upsert);
    on("edit", upsert);
    on("delete", (/** @type {{ id: number }} */ d) => remove(d.id));
    on("status", status);
    on("slow", (/** @type {{ retry_ms: number }} */ d) => toPolling(d.retry_ms));
    stream.addEventListener("open", () => (failures = 0));
    // A 503 (too many streams) closes it for good; a connection that keeps dropping is no better than polling.
    stream.addEventListener("error", () => {
      if (stream && (stream.readyState === EventSource.CLOSED || ++failures >= 3)) toPolling();
    });
  } else toPolling();

  // Polling rests while the tab is hidden and catches up at once when the reader comes back.
  doc.addEventListener("visibilitychange", () => polling && !doc.hidden && void poll());
}
