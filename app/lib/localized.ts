import type { Language } from "./language.ts";

/** The French variant when French is shown and the variant exists; the Arabic text otherwise. */
export function localized<T extends string | null | undefined>(lang: Language, arabic: T, french: string | null | undefined): T | string {
  return lang === "fr" && french ? french : arabic;
}
