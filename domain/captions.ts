/**
 * WebVTT captions of a video (docs/decisions/0111-captions-and-transcripts.md): what the newsroom may upload
 * and what the player's <track> says. Shared by the editor (its file picker), the upload server (its check)
 * and the detail page, so the three agree.
 */

export const CAPTIONS_MIME = "text/vtt";
/** A captions file is text: an hour of dense captions is about 100 KB, so 1 MB is generous. */
export const CAPTIONS_MAX_MB = 1;
/** Our content carries no language column yet: it is written in Arabic (public-site.md), so are its captions. */
export const DEFAULT_CAPTIONS_LANGUAGE = "ar";

/**
 * Whether a file's first bytes are a WebVTT file's: an optional UTF-8 byte order mark, "WEBVTT", then the end
 * of the file, a space, a tab or a line break (the WebVTT standard's signature; "WEBVTTX" is not one).
 */
export function isWebVtt(head: Uint8Array): boolean {
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  const magic = "WEBVTT";
  for (let i = 0; i < magic.length; i++) if (head[start + i] !== magic.charCodeAt(i)) return false;
  const next = head[start + magic.length];
  return next === undefined || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d;
}

/** The language's own name in the interface's language ("العربية", "arabe", "Arabic"): the track's label. */
export function captionsLabel(captionsLang: string, uiLang: string): string {
  try {
    return new Intl.DisplayNames([uiLang], { type: "language" }).of(captionsLang) ?? captionsLang;
  } catch {
    return captionsLang;
  }
}

/** What the player needs to show a captions track. */
export type CaptionsTrack = { src: string; srcLang: string; label: string };
