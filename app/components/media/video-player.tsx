/**
 * The one video player of the site (public-site.md §4 "Video player", §5 video identifier, §8 messages,
 * §9 HLS settings). It plays, in order: the adaptive stream (HLS), then the direct file, moving on when one
 * fails; a forbidden or unsupported-format error (media error code 4) on the hosted library switches to the
 * host's embed player, and so does the end of the list when the playback answer has an embed URL. hls.js is
 * imported only when an HLS stream is about to play in a browser without native HLS, so pages that never
 * play HLS never download it; and it is the "light" build (~120 KB gzip instead of ~190 KB: no subtitles,
 * alternate audio or DRM, none of which our videos have).
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type Hls from "hls.js";
import { PLAYBACK_MESSAGES, parseVideoSource, playbackPlan, type PlaybackAttempt, type VideoPlayback } from "#domain/video-source.ts";
import { CloseIcon } from "#app/components/ui/icons.tsx";
import type { CaptionsTrack } from "#domain/captions.ts";

export type VideoPlayerProps = {
  /** A hosted video id (UUID), a full URL (HLS .m3u8 or a file), or a path on this site. */
  source: string;
  title?: string;
  poster?: string | null;
  autoPlay?: boolean;
  onEnded?: () => void;
  className?: string;
  /** A hosted video's direct file: the browser's own player plays it before and without JavaScript. */
  file?: string | null;
  /** The video's WebVTT captions, shown by default (docs/decisions/0111-captions-and-transcripts.md). */
  captions?: CaptionsTrack;
};

type Attempt = PlaybackAttempt;
type Plan = { attempts: Attempt[]; embed?: string; poster?: string; id?: string };
type Phase = { name: "loading" } | { name: "ready" } | { name: "embed"; url: string; notice?: string } | { name: "error"; message: string; id?: string };

/** §9: keep 90 s behind the play head, low-latency mode on. No worker: the page's CSP allows no blob: workers. */
const HLS_CONFIG = { backBufferLength: 90, lowLatencyMode: true, enableWorker: false } as const;

/** Playback URLs the page's loader already has, so opening a hosted video does not need another request. */
const knownPlayback = new Map<string, VideoPlayback>();
export function rememberPlayback(id: string, playback: VideoPlayback) {
  knownPlayback.set(id.toLowerCase(), playback);
}

async function playbackOf(id: string, signal: AbortSignal): Promise<VideoPlayback | null> {
  const known = knownPlayback.get(id);
  if (known) return known;
  const res = await fetch(`/api/videos/${encodeURIComponent(id)}/playback`, { signal, headers: { Accept: "application/json" } });
  if (!res.ok) return null;
  const body = (await res.json()) as { playback?: VideoPlayback };
  if (body.playback) knownPlayback.set(id, body.playback);
  return body.playback ?? null;
}

const MEDIA_ERROR_NAMES: Record<number, string> = {
  1: "MEDIA_ERR_ABORTED",
  2: "MEDIA_ERR_NETWORK",
  3: "MEDIA_ERR_DECODE",
  4: "MEDIA_ERR_SRC_NOT_SUPPORTED",
};

export function VideoPlayer(props: VideoPlayerProps) {
  // A new source is a new player: nothing of the previous source's attempts carries over.
  return <SourcePlayer key={props.source} {...props} />;
}

/** An attempt starts "ready" (poster and controls) unless the player starts by itself. */
const attemptPhase = (autoPlay: boolean): Phase => (autoPlay ? { name: "loading" } : { name: "ready" });

/** What a source allows before any request: an error, a direct URL to try, or a hosted id to look up. */
function startOf(source: string, autoPlay: boolean): { plan: Plan | null; phase: Phase } {
  const parsed = parseVideoSource(source);
  if (parsed.kind === "invalid") return { plan: null, phase: { name: "error", message: parsed.message } };
  if (parsed.kind === "url") return { plan: { attempts: [{ url: parsed.url, format: parsed.format }] }, phase: attemptPhase(autoPlay) };
  return { plan: null, phase: { name: "loading" } };
}

function SourcePlayer({ source, title, poster, autoPlay = false, onEnded, className = "", captions, file }: VideoPlayerProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [start] = useState(() => startOf(source, autoPlay));
  const [plan, setPlan] = useState<Plan | null>(start.plan);
  const [index, setIndex] = useState(0);
  const [phase, setPhase] = useState<Phase>(start.phase);
  const [buffering, setBuffering] = useState(false);
  const [lastError, setLastError] = useState<string | null>(null);

  // 1. A hosted id: ask for its playback URLs, then try them in order, with the embed as the last resort.
  useEffect(() => {
    const parsed = parseVideoSource(source);
    if (parsed.kind !== "id") return;
    const controller = new AbortController();
    playbackOf(parsed.id, controller.signal)
      .then((playback) => {
        const order = playbackPlan(playback);
        if (!order) {
          setPhase({ name: "error", message: PLAYBACK_MESSAGES.noValidUrls, id: parsed.id });
          return;
        }
        setPlan({ ...order, poster: playback?.thumbnail, id: parsed.id });
        setPhase(order.attempts.length ? attemptPhase(autoPlay) : { name: "embed", url: order.embed! });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setPhase({ name: "error", message: `${PLAYBACK_MESSAGES.noValidUrls} (${String((error as Error)?.message ?? error)})`, id: parsed.id });
      });
    return () => controller.abort();
  }, [source, autoPlay]);

  const next = useCallback(
    (message: string) => {
      setLastError(message);
      setIndex((i) => i + 1);
      setPhase(attemptPhase(autoPlay));
    },
    [autoPlay],
  );

  // Every attempt failed: the hosted library's embed player if there is one, else the last reason and the
  // spec's closing words.
  const exhausted = plan !== null && plan.attempts.length > 0 && index >= plan.attempts.length;
  let shown = phase;
  if (exhausted && plan.embed) {
    shown = phase.name === "embed" ? phase : { name: "embed", url: plan.embed, notice: lastError ?? undefined };
  } else if (exhausted) {
    const allHls = plan.attempts.every((a) => a.format === "hls");
    const message = allHls ? PLAYBACK_MESSAGES.hlsAllFailed : (lastError ?? PLAYBACK_MESSAGES.noMoreUrls);
    shown = { name: "error", message: message === PLAYBACK_MESSAGES.noMoreUrls ? message : `${message} — ${PLAYBACK_MESSAGES.noMoreUrls}`, id: plan.id };
  }

  // 2. Play the current attempt; on failure move to the next one, or to the embed player.
  useEffect(() => {
    const video = videoRef.current;
    if (!plan || !video || index >= plan.attempts.length) return;
    const attempt = plan.attempts[index];
    let hls: Hls | null = null;
    let cancelled = false;

    const toEmbed = () => {
      if (!plan.embed) return false;
      setPhase({ name: "embed", url: plan.embed, notice: PLAYBACK_MESSAGES.authRequired });
      return true;
    };
    const onError = () => {
      const code = video.error?.code ?? 0;
      const reason = video.error?.message || MEDIA_ERROR_NAMES[code] || "unknown error";
      if (code === 4 && toEmbed()) return;
      next(PLAYBACK_MESSAGES.loadFailed(reason, code));
    };
    const onCanPlay = () => {
      setPhase((p) => (p.name === "loading" ? { name: "ready" } : p));
      if (autoPlay && video.paused) void video.play().catch(() => {});
    };
    video.addEventListener("error", onError);
    video.addEventListener("canplay", onCanPlay);

    const playFile = (url: string) => {
      video.src = url;
      video.load();
    };
    // A player waiting for the reader shows its poster and controls, not a spinner (attemptPhase): some
    // browsers (iOS) load nothing before the first tap. Failures still arrive through the error handlers.

    if (attempt.format === "file" || video.canPlayType("application/vnd.apple.mpegurl")) {
      // Files, and HLS where the browser plays it natively (Safari, recent Chromium).
      playFile(attempt.url);
    } else {
      import("hls.js/light")
        .then(({ default: HlsClass }) => {
          if (cancelled) return;
          if (!HlsClass.isSupported()) return next(PLAYBACK_MESSAGES.hlsUnsupported);
          hls = new HlsClass(HLS_CONFIG);
          hls.on(HlsClass.Events.ERROR, (_event, data) => {
            if (!data.fatal) return;
            const status = data.response?.code ?? 0;
            hls?.destroy();
            hls = null;
            if (status === 403 && toEmbed()) return;
            next(PLAYBACK_MESSAGES.loadFailed(data.details, status));
          });
          hls.loadSource(attempt.url);
          hls.attachMedia(video);
        })
        .catch((error: unknown) => !cancelled && next(PLAYBACK_MESSAGES.loadFailed(String((error as Error)?.message ?? error), 0)));
    }

    return () => {
      cancelled = true;
      video.removeEventListener("error", onError);
      video.removeEventListener("canplay", onCanPlay);
      hls?.destroy();
      video.removeAttribute("src");
      video.load();
    };
  }, [plan, index, autoPlay, next]);

  const shownPoster = poster ?? plan?.poster ?? undefined;
  // A direct file is in the server's HTML, so the browser's own player plays it without JavaScript; the
  // effect above then takes over the same element. Without JavaScript a stream is offered as a link.
  const first = start.plan?.attempts[0];
  const plainSrc = first?.format === "file" ? first.url : (file ?? undefined);
  const plainLink = first?.format === "hls" ? first.url : undefined;
  const loading = shown.name === "loading" || (shown.name === "ready" && buffering);

  return (
    <div
      className={`relative aspect-video w-full overflow-hidden rounded-lg bg-black text-white ${className}`}
      data-testid="video-player"
      data-phase={shown.name}
    >
      {shown.name === "embed" ? (
        <>
          <iframe
            src={shown.url}
            title={title ?? t("player.title")}
            className="absolute inset-0 h-full w-full border-0"
            allow="accelerometer; gyroscope; autoplay; encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
            data-testid="video-embed"
          />
          {shown.notice && (
            <p role="status" className="sr-only" dir="ltr">
              {shown.notice}
            </p>
          )}
        </>
      ) : shown.name === "error" ? (
        <div role="alert" className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-4 text-center" data-testid="video-error">
          <p className="text-lg font-bold">{t("player.cannotPlay")}</p>
          <p className="max-w-full break-words text-sm opacity-90" dir="ltr" data-testid="video-error-message">
            {shown.message}
          </p>
          {shown.id && (
            <p className="text-sm opacity-90">
              {t("player.videoId")}:{" "}
              <code dir="ltr" className="break-all" data-testid="video-error-id">
                {shown.id}
              </code>
            </p>
          )}
        </div>
      ) : (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- the captions track is there when the video has one; the rule cannot see a conditional child
        <video
          ref={videoRef}
          className="absolute inset-0 h-full w-full"
          controls
          playsInline
          preload="metadata"
          poster={shownPoster}
          src={plainSrc}
          aria-label={title}
          onWaiting={() => setBuffering(true)}
          onPlaying={() => setBuffering(false)}
          onPause={() => setBuffering(false)}
          onEnded={onEnded}
          data-testid="video-element"
        >
          {/* A child of the one element whatever plays in it (file, native HLS, hls.js, no JavaScript), so every path shows it. */}
          {captions && <track kind="captions" src={captions.src} srcLang={captions.srcLang} label={captions.label} default data-testid="video-captions" />}
        </video>
      )}
      {plainLink && (
        <noscript>
          <a href={plainLink} className="absolute inset-x-0 bottom-0 bg-black/70 p-3 text-center font-bold underline" data-testid="video-fallback-link">
            {title ?? t("player.title")}
          </a>
        </noscript>
      )}
      {loading && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center" data-testid="video-loading">
          <span className="h-12 w-12 animate-spin rounded-full border-4 border-white/30 border-t-white" aria-hidden="true" />
          <span className="sr-only" role="status">
            {t("player.loading")}
          </span>
        </div>
      )}
    </div>
  );
}

export type VideoModalProps = { open: boolean; onClose: () => void; source: string; title?: string; poster?: string | null };

/**
 * The player in a modal dialog. A native <dialog> opened with showModal() gives the top layer, an inert
 * page behind it and Escape for free; we add the label, focus placement and focus return.
 */
export function VideoModal({ open, onClose, source, title, poster }: VideoModalProps) {
  if (!open) return null;
  return <OpenVideoModal onClose={onClose} source={source} title={title} poster={poster} />;
}

function OpenVideoModal({ onClose, source, title, poster }: Omit<VideoModalProps, "open">) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const scroll = document.documentElement.style.overflow;
    if (!dialog.open) dialog.showModal();
    closeRef.current?.focus();
    document.documentElement.style.overflow = "hidden";
    return () => {
      document.documentElement.style.overflow = scroll;
      if (dialog.open) dialog.close();
      // Back to the control that opened the dialog, so keyboard readers keep their place.
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a backdrop click is the mouse's way out; Escape (onCancel) and the close button are the keyboard's
    <dialog
      ref={dialogRef}
      aria-modal="true"
      aria-labelledby={titleId}
      className="m-auto w-[min(64rem,calc(100vw-1.5rem))] max-w-none overflow-visible bg-transparent p-0 backdrop:bg-black/80"
      data-testid="video-modal"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="rounded-xl bg-ink p-3 text-white shadow-2xl sm:p-4">
        <div className="mb-3 flex items-start justify-between gap-3">
          <h2 id={titleId} className="text-lg font-bold leading-snug sm:text-xl">
            {title ?? t("player.title")}
          </h2>
          <button
            ref={closeRef}
            type="button"
            onClick={() => onClose()}
            className="shrink-0 rounded-md p-2 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
            aria-label={t("common.close")}
            data-testid="video-modal-close"
          >
            <CloseIcon />
          </button>
        </div>
        <VideoPlayer source={source} title={title} poster={poster} autoPlay />
      </div>
    </dialog>
  );
}

/** A play symbol for thumbnails that open the player. */
export function PlayBadge({ children }: { children?: ReactNode }) {
  return (
    <span className="pointer-events-none absolute inset-0 flex items-center justify-center" aria-hidden="true">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-black/55 text-white">
        <svg width="24" height="24" viewBox="0 0 24 24" fill="currentColor">
          <path d="M8 5v14l11-7z" />
        </svg>
      </span>
      {children}
    </span>
  );
}
