/**
 * What a file is, from its first bytes (a name or a declared type proves nothing): the audio and video
 * containers the newsroom uploads. Sixteen bytes are enough for every signature here.
 */
export type MediaKind = "video" | "audio";
export type SniffedMedia = { kind: MediaKind; mime: string; extension: string };

export const SNIFF_BYTES = 16;

export function sniffMedia(bytes: Uint8Array): SniffedMedia | null {
  const at = (offset: number, ...values: number[]) => values.every((v, i) => bytes[offset + i] === v);
  const ascii = (offset: number, text: string) => at(offset, ...[...text].map((c) => c.charCodeAt(0)));
  if (ascii(4, "ftyp")) {
    const brand = String.fromCharCode(...bytes.slice(8, 12));
    if (brand === "M4A " || brand === "M4B ") return { kind: "audio", mime: "audio/mp4", extension: "m4a" };
    if (brand === "qt  ") return { kind: "video", mime: "video/quicktime", extension: "mov" };
    return { kind: "video", mime: "video/mp4", extension: "mp4" };
  }
  // Matroska and WebM share the EBML header; both are played as video (an audio-only WebM is rare here).
  if (at(0, 0x1a, 0x45, 0xdf, 0xa3)) return { kind: "video", mime: "video/webm", extension: "webm" };
  if (ascii(0, "RIFF") && ascii(8, "AVI ")) return { kind: "video", mime: "video/x-msvideo", extension: "avi" };
  if (at(0, 0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11)) return { kind: "video", mime: "video/x-ms-wmv", extension: "wmv" };
  if (ascii(0, "RIFF") && ascii(8, "WAVE")) return { kind: "audio", mime: "audio/wav", extension: "wav" };
  if (ascii(0, "OggS")) return { kind: "audio", mime: "audio/ogg", extension: "ogg" };
  if (ascii(0, "fLaC")) return { kind: "audio", mime: "audio/flac", extension: "flac" };
  if (ascii(0, "ID3") || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return { kind: "audio", mime: "audio/mpeg", extension: "mp3" };
  return null;
}
