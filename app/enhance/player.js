// @ts-check
/**
 * The video player of the public pages (public-site.md §4 "Video player", §8 messages, §9 HLS settings), as an
 * enhancement of the player the server rendered (app/components/media/video-player.tsx): a `[data-player]` box
 * holding a `<video>` (the browser's own player, which already plays a direct file without JavaScript), or the
 * error the server already knows. Its `data-start` says what to play: a plan of attempts (adaptive stream, then
 * direct file, then the hosted library's embed), or a hosted id whose playback URLs are asked for first.
 * It moves on when an attempt fails; a forbidden or unsupported file (media error 4, or a 403 on the stream)
 * switches to the embed. hls.js (its light build, an asset of its own) is imported only when an HLS stream is
 * about to play in a browser without native HLS.
 *
 * The players a reader opens (the modal, a card's inline player) are app/enhance/video-openers.js's.
 * Every string is in the page (data-* attributes in its language, the spec's English messages in
 * `data-messages`). Served as it is, hence plain JavaScript (docs/decisions/0132-video-player-without-react.md).
 */
const doc = document;

/** §9: keep 90 s behind the play head, low-latency mode on. No worker: the page's CSP allows no blob: workers. */
const HLS_CONFIG = { backBufferLength: 90, lowLatencyMode: true, enableWorker: false };
/** @type {Record<number, string>} */
const MEDIA_ERROR_NAMES = { 1: "MEDIA_ERR_ABORTED", 2: "MEDIA_ERR_NETWORK", 3: "MEDIA_ERR_DECODE", 4: "MEDIA_ERR_SRC_NOT_SUPPORTED" };

/**
 * @typedef {{ url: string, format: "hls" | "file" }} Attempt
 * @typedef {{ attempts: Attempt[], embed?: string, id?: string }} Plan
 * @typedef {{ plan?: Plan, id?: string, error?: { message: string, id?: string }, poster?: string }} Start
 * @typedef {{ hls?: string, mp4?: string, embed?: string, thumbnail?: string }} Playback
 */

/** @param {string} template @param {Record<string, string | number>} values */
const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));

/** The order a hosted video is tried in (domain/video-source.ts playbackPlan): stream, file, then the embed. @param {Playback | null | undefined} p */
function planOf(p) {
  /** @type {Attempt[]} */
  const attempts = [];
  if (p?.hls) attempts.push({ url: p.hls, format: "hls" });
  if (p?.mp4) attempts.push({ url: p.mp4, format: "file" });
  return attempts.length || p?.embed ? { attempts, embed: p?.embed || undefined } : null;
}

/** @param {string} tag @param {string} [className] @param {string} [text] */
function el(tag, className, text) {
  const node = doc.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** @type {WeakMap<HTMLElement, () => void>} */
const stops = new WeakMap();

/**
 * Takes over one server-rendered player. Returns what stops it (the modal's close, the card's toggle).
 * @param {HTMLElement} box
 * @param {{ autoPlay?: boolean, onEnded?: () => void }} [options]
 */
export function enhancePlayer(box, options = {}) {
  const known = stops.get(box);
  if (known) return known;
  const data = box.dataset;
  const autoPlay = options.autoPlay ?? data.autoplay !== undefined;
  /** @type {Record<string, string>} */
  const messages = JSON.parse(data.messages || "{}");
  /** @type {Start} */
  const start = JSON.parse(data.start || "{}");
  let video = /** @type {HTMLVideoElement | null} */ (box.querySelector("video"));
  /** @type {Plan | null} */
  let plan = null;
  let index = 0;
  /** @type {string | null} */
  let lastError = null;
  /** The current attempt's listeners and stream; aborting them ends the attempt. */
  let attempt = new AbortController();
  /** @type {{ destroy(): void } | null} */
  let hls = null;
  let stopped = false;

  const phase = (/** @type {string} */ name) => (data.phase = name);
  const spinner = (/** @type {boolean} */ on) => {
    const shown = box.querySelector('[data-testid="video-loading"]');
    if (!on) return shown?.remove();
    if (shown) return;
    const overlay = el("div", "pointer-events-none absolute inset-0 flex items-center justify-center");
    overlay.dataset.testid = "video-loading";
    const ring = el("span", "h-12 w-12 animate-spin rounded-full border-4 border-white/30 border-t-white");
    ring.setAttribute("aria-hidden", "true");
    const status = el("span", "sr-only", data.labelLoading);
    status.setAttribute("role", "status");
    overlay.append(ring, status);
    box.append(overlay);
  };

  /** Ends the current attempt: its listeners, its stream, and the element's source unless it is kept. */
  function endAttempt(keepSource = false) {
    attempt.abort();
    attempt = new AbortController();
    hls?.destroy();
    hls = null;
    if (!keepSource && (video?.getAttribute("src") || video?.currentSrc)) {
      video.removeAttribute("src");
      video.load();
    }
  }

  /** In place of the <video>: the embed player or the error. @param {HTMLElement[]} nodes */
  function replaceVideo(...nodes) {
    endAttempt();
    spinner(false);
    video?.remove();
    video = null;
    box.querySelector("noscript")?.remove();
    box.prepend(...nodes);
  }

  /** @param {string} url @param {string} [notice] */
  function toEmbedPlayer(url, notice) {
    const frame = /** @type {HTMLIFrameElement} */ (el("iframe", "absolute inset-0 h-full w-full border-0"));
    frame.src = url;
    frame.title = data.labelTitle || "";
    frame.allow = "accelerometer; gyroscope; autoplay; encrypted-media; picture-in-picture; fullscreen";
    frame.allowFullscreen = true;
    frame.dataset.testid = "video-embed";
    const nodes = /** @type {HTMLElement[]} */ ([frame]);
    if (notice) {
      const said = el("p", "sr-only", notice);
      said.setAttribute("role", "status");
      said.dir = "ltr";
      nodes.push(said);
    }
    replaceVideo(...nodes);
    phase("embed");
  }

  /** The server's markup for the same state is in video-player.tsx (PlayerError). @param {string} message @param {string} [id] */
  function toError(message, id) {
    const alert = el("div", "absolute inset-0 flex flex-col items-center justify-center gap-2 p-4 text-center");
    alert.setAttribute("role", "alert");
    alert.dataset.testid = "video-error";
    const detail = el("p", "max-w-full break-words text-sm opacity-90", message);
    detail.dir = "ltr";
    detail.dataset.testid = "video-error-message";
    alert.append(el("p", "text-lg font-bold", data.labelCannotPlay), detail);
    if (id) {
      const line = el("p", "text-sm opacity-90", `${data.labelVideoId}: `);
      const code = el("code", "break-all", id);
      code.dir = "ltr";
      code.dataset.testid = "video-error-id";
      line.append(code);
      alert.append(line);
    }
    replaceVideo(alert);
    phase("error");
  }

  /** @param {string} message */
  const next = (message) => {
    lastError = message;
    index += 1;
    play();
  };
  const forbidden = () => {
    if (!plan?.embed) return false;
    toEmbedPlayer(plan.embed, messages.authRequired);
    return true;
  };

  /** Plays the current attempt; every attempt failed: the embed if there is one, else the last reason. */
  function play() {
    if (stopped || !plan || !video) return;
    const current = plan.attempts[index];
    const native = current && (current.format === "file" || video.canPlayType("application/vnd.apple.mpegurl") !== "");
    // The server's own source, already playing or loading without a failure (a reader who pressed play before
    // this script ran): keep it rather than start it again.
    const keep = Boolean(native && video.getAttribute("src") === current.url && !video.error);
    endAttempt(keep);
    if (index >= plan.attempts.length) {
      if (plan.embed) return toEmbedPlayer(plan.embed, lastError ?? undefined);
      const allHls = plan.attempts.every((a) => a.format === "hls");
      const reason = allHls ? messages.hlsAllFailed : (lastError ?? messages.noMoreUrls);
      return toError(reason === messages.noMoreUrls ? reason : `${reason} — ${messages.noMoreUrls}`, plan.id);
    }
    const media = video;
    const { signal } = attempt;
    // Waiting for the reader: poster and controls, not a spinner (some browsers load nothing before a tap).
    phase(autoPlay ? "loading" : "ready");
    spinner(autoPlay);
    media.addEventListener(
      "error",
      () => {
        const code = media.error?.code ?? 0;
        if (code === 4 && forbidden()) return;
        next(fill(messages.loadFailed, { reason: media.error?.message || MEDIA_ERROR_NAMES[code] || "unknown error", code }));
      },
      { signal },
    );
    media.addEventListener(
      "canplay",
      () => {
        if (data.phase === "loading") {
          phase("ready");
          spinner(false);
        }
        if (autoPlay && media.paused) media.play().catch(() => {});
      },
      { signal },
    );
    media.addEventListener("waiting", () => spinner(true), { signal });
    for (const type of ["playing", "pause"]) media.addEventListener(type, () => data.phase === "ready" && spinner(false), { signal });
    if (options.onEnded) media.addEventListener("ended", options.onEnded, { signal });

    if (native) {
      // Files, and HLS where the browser plays it natively (Safari, recent Chromium).
      if (keep) return;
      media.src = current.url;
      media.load();
      return;
    }
    import(/* @vite-ignore */ data.hls || "")
      .then(({ default: Hls }) => {
        if (signal.aborted) return;
        if (!Hls.isSupported()) return next(messages.hlsUnsupported);
        const stream = new Hls(HLS_CONFIG);
        hls = stream;
        stream.on(Hls.Events.ERROR, (/** @type {unknown} */ _event, /** @type {any} */ info) => {
          if (!info.fatal || signal.aborted) return;
          const status = info.response?.code ?? 0;
          if (status === 403 && forbidden()) return;
          next(fill(messages.loadFailed, { reason: info.details, code: status }));
        });
        stream.loadSource(current.url);
        stream.attachMedia(media);
      })
      .catch((/** @type {Error} */ error) => !signal.aborted && next(fill(messages.loadFailed, { reason: String(error?.message ?? error), code: 0 })));
  }

  const lookup = new AbortController();
  const stop = () => {
    stopped = true;
    lookup.abort();
    endAttempt();
    stops.delete(box);
  };
  stops.set(box, stop);

  if (start.poster && video && !video.poster) video.poster = start.poster;
  if (start.error) {
    toError(start.error.message, start.error.id);
  } else if (start.plan) {
    plan = start.plan;
    if (plan.attempts.length) play();
    else if (plan.embed) toEmbedPlayer(plan.embed);
  } else if (start.id) {
    // A hosted id: its playback URLs first (the server's answer, cached a minute by the browser).
    const id = start.id;
    phase("loading");
    spinner(true);
    fetch(`/api/videos/${encodeURIComponent(id)}/playback`, { signal: lookup.signal, headers: { Accept: "application/json" } })
      .then(async (res) => (res.ok ? /** @type {{ playback?: Playback }} */ (await res.json()).playback : null))
      .then((playback) => {
        const order = planOf(playback);
        if (!order) return toError(messages.noValidUrls, id);
        plan = { ...order, id };
        if (video && !video.poster && playback?.thumbnail) video.poster = playback.thumbnail;
        if (order.attempts.length) play();
        else toEmbedPlayer(/** @type {string} */ (order.embed));
      })
      .catch((/** @type {Error} */ error) => !lookup.signal.aborted && toError(`${messages.noValidUrls} (${String(error?.message ?? error)})`, id));
  }
  return stop;
}

/** Every server-rendered player in `root` (a detail page's video); the ones a template holds wait for their opener. @param {ParentNode} root */
export function enhance(root) {
  for (const box of root.querySelectorAll("[data-player]")) if (!box.closest("template")) enhancePlayer(/** @type {HTMLElement} */ (box));
}

// A page without React (the static document): take it over now. In an app page (a client-side navigation, the
// newsroom's preview) the React component calls enhancePlayer() itself (app/lib/enhance-in-app.ts).
if (!("__reactRouterContext" in window)) enhance(doc);
