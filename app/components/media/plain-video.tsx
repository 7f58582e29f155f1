/**
 * What a video is without JavaScript: the browser's own player on the file, or a link to it. The enhanced
 * player (video-player.tsx) needs JavaScript for hosted ids, HLS and its fallbacks; a reader without it, or
 * before the player's code arrives, still gets something that plays.
 */
import type { CaptionsTrack } from "#domain/captions.ts";
import { parseVideoSource } from "#domain/video-source.ts";

/** The URL a browser can open as it is (a file or a stream URL); null for a hosted id or an invalid source. */
export function plainVideoUrl(source: string | null | undefined): string | null {
  const parsed = parseVideoSource(source);
  return parsed.kind === "url" ? parsed.url : null;
}

/** The browser's player on a direct file; for a stream or a hosted id, the dark frame the player will fill. */
export function PlainVideo({
  source,
  file,
  title,
  poster,
  captions,
}: {
  source: string;
  /** A hosted video's direct file, when the server knows it. */
  file?: string | null;
  title?: string;
  poster?: string | null;
  captions?: CaptionsTrack | null;
}) {
  const parsed = parseVideoSource(source);
  const src = parsed.kind === "url" && parsed.format === "file" ? parsed.url : (file ?? null);
  if (src) {
    return (
      // eslint-disable-next-line jsx-a11y/media-has-caption -- the captions track is there when the video has one
      <video
        controls
        playsInline
        preload="none"
        src={src}
        poster={poster ?? undefined}
        aria-label={title}
        className="aspect-video w-full rounded-xl bg-ink/90"
        data-testid="video-fallback"
      >
        {captions && <track kind="captions" src={captions.src} srcLang={captions.srcLang} label={captions.label} default />}
      </video>
    );
  }
  return <div className="aspect-video w-full rounded-xl bg-ink/90" />;
}
