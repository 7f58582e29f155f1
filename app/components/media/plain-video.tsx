/**
 * What a video is without JavaScript: a URL the browser opens as it is. The player (video-player.tsx) renders
 * the browser's own <video> on a direct file; a card whose video plays inline links to the file instead.
 */
import { parseVideoSource } from "#domain/video-source.ts";

/** The URL a browser can open as it is (a file or a stream URL); null for a hosted id or an invalid source. */
export function plainVideoUrl(source: string | null | undefined): string | null {
  const parsed = parseVideoSource(source);
  return parsed.kind === "url" ? parsed.url : null;
}
