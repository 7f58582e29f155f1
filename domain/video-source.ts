/**
 * What a "video source" is (public-site.md §3 and §5): a hosted video id, a full URL, or a path on this
 * site. Pure and shared: the player uses it in the browser, the video library and the tests on the server.
 */

/** The spec's video identifier: 8-4-4-4-12 hexadecimal digits, 36 characters. */
export const VIDEO_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isVideoId(value: unknown): boolean {
  return typeof value === "string" && value.length === 36 && VIDEO_ID_PATTERN.test(value);
}

/** The playback messages of public-site.md §8, verbatim (the player shows them as the technical detail). */
export const PLAYBACK_MESSAGES = {
  invalidSource: (reason: string) => `Invalid video source - ${reason}`,
  storageUrl: "Invalid video source - Storage URLs cannot be used for video playback",
  noValidUrls: "No valid video URLs available",
  noMoreUrls: "No more video URLs to try",
  hlsAllFailed: "Cannot load video with HLS - all URLs failed",
  hlsUnsupported: "HLS streaming not supported by this browser",
  loadFailed: (reason: string, code: number) => `Failed to load video: ${reason} (Code: ${code})`,
  authRequired: "Authentication required - switching to iframe player",
} as const;

/**
 * Hosts of the file storage API. Their URLs need the storage access key, so they can never play in a
 * browser (and must not: the key would have to travel with them). Regional endpoints are subdomains.
 */
export const DEFAULT_STORAGE_HOSTS = ["storage.bunnycdn.com"];

/** Hosts of the hosted video library whose URLs carry the video id in their path. */
const VIDEO_HOST_SUFFIXES = ["mediadelivery.net", "video.bunnycdn.com", "b-cdn.net"];

export type VideoSource =
  /** A hosted video: the browser asks the server for its playback URLs. */
  | { kind: "id"; id: string }
  /** Something playable as it is: an absolute http(s) URL or a same-site path. */
  | { kind: "url"; url: string; format: "hls" | "file"; id?: undefined }
  | { kind: "invalid"; message: string; id?: string };

const hostMatches = (host: string, list: readonly string[]) => list.some((h) => host === h || host.endsWith(`.${h}`));

/**
 * Classifies a source. A URL of the video host that names a video id becomes that id, so it gets the same
 * fallbacks (adaptive stream, direct file, embed) as a bare id; a URL of the storage API is refused.
 */
export function parseVideoSource(raw: string | null | undefined, opts: { storageHosts?: readonly string[] } = {}): VideoSource {
  const value = (raw ?? "").trim();
  if (!value) return { kind: "invalid", message: PLAYBACK_MESSAGES.invalidSource("empty") };
  if (isVideoId(value)) return { kind: "id", id: value.toLowerCase() };

  // A same-site path: one leading slash (a protocol-relative "//host" is a URL, handled below).
  if (value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) {
    if (/[\s<>"'`]/.test(value) || value.split(/[?#]/)[0].split("/").includes("..")) {
      return { kind: "invalid", message: PLAYBACK_MESSAGES.invalidSource("malformed path") };
    }
    return { kind: "url", url: value, format: formatOf(value) };
  }

  let url: URL;
  try {
    url = new URL(value.startsWith("//") ? `https:${value}` : value);
  } catch {
    return { kind: "invalid", message: PLAYBACK_MESSAGES.invalidSource("not a video id or URL") };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { kind: "invalid", message: PLAYBACK_MESSAGES.invalidSource(`unsupported protocol ${url.protocol.replace(":", "")}`) };
  }
  const host = url.hostname.toLowerCase();
  if (hostMatches(host, opts.storageHosts ?? DEFAULT_STORAGE_HOSTS)) return { kind: "invalid", message: PLAYBACK_MESSAGES.storageUrl };
  if (hostMatches(host, VIDEO_HOST_SUFFIXES)) {
    const segments = url.pathname.split("/").filter(Boolean);
    // The video CDN lays files out as /{guid}/...; a pull zone of the file storage shares the b-cdn.net
    // domain but not that layout, so there only the first segment counts.
    const id = hostMatches(host, ["b-cdn.net"]) ? segments.slice(0, 1).find(isVideoId) : segments.find(isVideoId);
    if (id) return { kind: "id", id: id.toLowerCase() };
  }
  return { kind: "url", url: url.toString(), format: formatOf(url.pathname) };
}

function formatOf(pathOrUrl: string): "hls" | "file" {
  return /\.m3u8$/i.test(pathOrUrl.split(/[?#]/)[0]) ? "hls" : "file";
}

/**
 * The playback URLs of one hosted video, as the server's video library builds them (GET
 * /api/videos/{guid}/playback): the adaptive stream, the direct file, the host's embed player page (hosted
 * library only) and the thumbnail.
 */
export type VideoPlayback = { hls?: string; mp4?: string; embed?: string; thumbnail?: string };

export type PlaybackAttempt = { url: string; format: "hls" | "file" };

/**
 * The order the player tries a hosted video in (public-site.md §4): the adaptive stream, then the direct
 * file; the embed player is kept for last (and for a forbidden file). Null when there is nothing at all to
 * play: the player then says 'No valid video URLs available' with the id.
 */
export function playbackPlan(playback: VideoPlayback | null | undefined): { attempts: PlaybackAttempt[]; embed?: string } | null {
  const attempts: PlaybackAttempt[] = [];
  if (playback?.hls) attempts.push({ url: playback.hls, format: "hls" });
  if (playback?.mp4) attempts.push({ url: playback.mp4, format: "file" });
  const embed = playback?.embed || undefined;
  if (!attempts.length && !embed) return null;
  return embed ? { attempts, embed } : { attempts };
}
