/**
 * The one video player of the site (public-site.md §4 "Video player", §5 video identifier, §8 messages, §9 HLS
 * settings), as the server renders it: a box with the browser's own `<video>` (which plays a direct file
 * without JavaScript), its captions track, a link to a stream for readers without JavaScript, or the error
 * the server already knows (an invalid source). Its behaviour (HLS through hls.js light where the browser has
 * no native HLS, the direct file, the hosted library's embed, the fallbacks between them, the modal and the
 * inline player of a card) is plain script, app/enhance/player.js and video-openers.js, loaded by the pages that show a player
 * (docs/decisions/0132-video-player-without-react.md). Everything it needs is written here as data-* attributes
 * in the page's language; hls.js light is an asset of its own, named here and imported only when a stream plays.
 */
import { memo, useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import hlsLight from "hls.js/dist/hls.light.min.mjs?url";
import playerModule from "#app/enhance/player.js?url";
import openersModule from "#app/enhance/video-openers.js?url";
import { PLAYBACK_MESSAGES, parseVideoSource, playbackPlan, type PlaybackAttempt, type VideoPlayback } from "#domain/video-source.ts";
import { CloseIcon } from "#app/components/ui/icons.tsx";
import type { CaptionsTrack } from "#domain/captions.ts";
import { inApp } from "#app/lib/enhance-in-app.ts";

/**
 * The scripts, for the routes' `handle.enhance` (app/lib/static-page.ts): the player, and for a page whose
 * players open on demand (the modal, a card's inline player) the openers too.
 */
export { playerModule, openersModule };
export const OPENER_PAGE_MODULES = [playerModule, openersModule] as const;

/** What the script starts from: a plan of attempts, a hosted id to look up, or an error known already. */
export type PlayerStart = {
  plan?: { attempts: PlaybackAttempt[]; embed?: string; id?: string };
  id?: string;
  error?: { message: string; id?: string };
  poster?: string;
};

/**
 * What a source allows before the browser does anything: an error, a URL to try, a hosted id to look up, or,
 * when the page already has its playback URLs (the video library), the whole plan.
 */
export function playerStart(source: string, playback?: VideoPlayback | null): PlayerStart {
  const parsed = parseVideoSource(source);
  if (parsed.kind === "invalid") return { error: { message: parsed.message } };
  if (parsed.kind === "url") return { plan: { attempts: [{ url: parsed.url, format: parsed.format }] } };
  if (!playback) return { id: parsed.id };
  const order = playbackPlan(playback);
  if (!order) return { error: { message: PLAYBACK_MESSAGES.noValidUrls, id: parsed.id } };
  return { plan: { ...order, id: parsed.id }, ...(playback.thumbnail ? { poster: playback.thumbnail } : {}) };
}

/** The spec's playback messages as the script fills them in ({reason}, {code}). */
const MESSAGES = JSON.stringify({
  noValidUrls: PLAYBACK_MESSAGES.noValidUrls,
  noMoreUrls: PLAYBACK_MESSAGES.noMoreUrls,
  hlsAllFailed: PLAYBACK_MESSAGES.hlsAllFailed,
  hlsUnsupported: PLAYBACK_MESSAGES.hlsUnsupported,
  authRequired: PLAYBACK_MESSAGES.authRequired,
  loadFailed: PLAYBACK_MESSAGES.loadFailed("{reason}", 0).replace("(Code: 0)", "(Code: {code})"),
});

/** The data-* attributes of a player box: its strings, the spec's messages and where hls.js is. */
function usePlayerData(title?: string) {
  const { t } = useTranslation();
  return {
    "data-player": "",
    "data-testid": "video-player",
    "data-hls": hlsLight,
    "data-messages": MESSAGES,
    "data-label-title": title ?? t("player.title"),
    "data-label-cannot-play": t("player.cannotPlay"),
    "data-label-video-id": t("player.videoId"),
    "data-label-loading": t("player.loading"),
  };
}

const BOX = "relative aspect-video w-full overflow-hidden rounded-lg bg-black text-white";

export type VideoPlayerProps = {
  /** A hosted video id (UUID), a full URL (HLS .m3u8 or a file), or a path on this site. */
  source: string;
  title?: string;
  poster?: string | null;
  className?: string;
  /** A hosted video's direct file: the browser's own player plays it before and without JavaScript. */
  file?: string | null;
  /** The video's WebVTT captions, shown by default (docs/decisions/0111-captions-and-transcripts.md). */
  captions?: CaptionsTrack;
};

/** A player in the page (a detail page's video). Keyed by its source: a new source is a new player. */
export function VideoPlayer(props: VideoPlayerProps) {
  return <PlayerBox key={props.source} {...props} />;
}

const PlayerBox = memo(function PlayerBox({ source, title, poster, className = "", captions, file }: VideoPlayerProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const start = playerStart(source);
  const attrs = usePlayerData(title);
  // In an app page (the newsroom's preview, a client-side navigation) the script is loaded by the component.
  useEffect(() => inApp(playerModule, (m: { enhancePlayer: (el: HTMLElement) => () => void }) => (box.current ? m.enhancePlayer(box.current) : undefined)), []);
  const first = start.plan?.attempts[0];
  // A direct file is in the server's HTML, so the browser's own player plays it without JavaScript; the
  // script then takes over the same element. Without JavaScript a stream is offered as a link.
  const plainSrc = first?.format === "file" ? first.url : (file ?? undefined);
  const plainLink = first?.format === "hls" ? first.url : undefined;
  return (
    <div ref={box} className={`${BOX} ${className}`} {...attrs} data-phase={start.error ? "error" : "ready"} data-start={JSON.stringify(start)}>
      {start.error ? (
        <PlayerError message={start.error.message} />
      ) : (
        <PlainVideoElement src={plainSrc} poster={poster ?? undefined} title={title} captions={captions} />
      )}
      {plainLink && (
        <noscript>
          <a href={plainLink} className="absolute inset-x-0 bottom-0 bg-black/70 p-3 text-center font-bold underline" data-testid="video-fallback-link">
            {title ?? t("player.title")}
          </a>
        </noscript>
      )}
    </div>
  );
});

function PlainVideoElement({ src, poster, title, captions }: { src?: string; poster?: string; title?: string; captions?: CaptionsTrack }) {
  return (
    // eslint-disable-next-line jsx-a11y/media-has-caption -- the captions track is there when the video has one; the rule cannot see a conditional child
    <video
      className="absolute inset-0 h-full w-full"
      controls
      playsInline
      preload="metadata"
      poster={poster}
      src={src}
      aria-label={title}
      data-testid="video-element"
    >
      {/* A child of the one element whatever plays in it (file, native HLS, hls.js, no JavaScript), so every path shows it. */}
      {captions && <track kind="captions" src={captions.src} srcLang={captions.srcLang} label={captions.label} default data-testid="video-captions" />}
    </video>
  );
}

/** The error the server knows already; the script builds the same for the errors it meets (player.js toError). */
function PlayerError({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-4 text-center" data-testid="video-error">
      <p className="text-lg font-bold">{t("player.cannotPlay")}</p>
      <p className="max-w-full break-words text-sm opacity-90" dir="ltr" data-testid="video-error-message">
        {message}
      </p>
    </div>
  );
}

/**
 * What a control that opens a player carries (the modal's openers, a card's inline toggle): what to play,
 * its title and its poster. The page also renders <VideoTemplates/> once.
 */
export function videoOpener(start: PlayerStart, title: string, poster?: string | null) {
  return { "data-video": JSON.stringify(start), "data-video-title": title, ...(poster ? { "data-video-poster": poster } : {}) };
}

/**
 * The markup the script clones for a player opened by the reader: an empty player (the strings, a `<video>`)
 * and the modal dialog (labelled by its heading, the close button's label in the page's language). Rendered
 * once by a page with openers; inert until used.
 */
export function VideoTemplates({ modal = true }: { modal?: boolean }) {
  const { t } = useTranslation();
  const attrs = usePlayerData();
  return (
    <>
      <template data-video-player="" data-module={playerModule}>
        <div className={BOX} {...attrs} data-phase="ready">
          <PlainVideoElement />
        </div>
      </template>
      {modal && (
        <template data-video-modal="">
          <dialog
            aria-modal="true"
            aria-labelledby="video-modal-title"
            className="m-auto w-[min(64rem,calc(100vw-1.5rem))] max-w-none overflow-visible bg-transparent p-0 backdrop:bg-black/80"
            data-testid="video-modal"
          >
            <div className="rounded-xl bg-ink p-3 text-white shadow-2xl sm:p-4">
              <div className="mb-3 flex items-start justify-between gap-3">
                <h2 id="video-modal-title" className="text-lg font-bold leading-snug sm:text-xl">
                  {t("player.title")}
                </h2>
                <button
                  type="button"
                  className="shrink-0 rounded-md p-2 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
                  aria-label={t("common.close")}
                  data-testid="video-modal-close"
                >
                  <CloseIcon />
                </button>
              </div>
              <div data-player-slot="" />
            </div>
          </dialog>
        </template>
      )}
    </>
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
