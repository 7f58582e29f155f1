// The web fonts to preload (decision 0114). The @font-face rules are in app/fonts/fonts.css, imported once by
// app/root.tsx; both are written by scripts/fonts.ts (`npm run fonts`). `?url` gives the same fingerprinted
// URL as the stylesheet's url(), so the preloaded file is the one the @font-face rule asks for.
import arabic400 from "#app/fonts/noto-sans-arabic-400.woff2?url";
import inter400 from "#app/fonts/inter-400.woff2?url";
import type { Language } from "#domain/language.ts";

export interface FontPreload {
  href: string;
  type: string;
}

const ARABIC_400: FontPreload = { href: arabic400, type: "font/woff2" };
const INTER_400: FontPreload = { href: inter400, type: "font/woff2" };

/**
 * The regular weight of the fonts above the fold, for `<link rel="preload" as="font" crossOrigin="anonymous">`
 * (fonts are fetched in CORS mode: without crossOrigin the preload is not reused). Bold (headlines) is not
 * preloaded: it would compete with the regular weight and the page's own CSS and scripts, and its fallback face
 * keeps the swap from moving anything.
 *
 * Arabic pages: Noto Sans Arabic only. Their Latin (the "FR" toggle, Latin digits of dates) is a few characters
 * in Inter, which loads when the CSS asks for it.
 *
 * French and English pages: Inter first, and Noto Sans Arabic too. The content is Arabic (English has no
 * variants; French only where the newsroom wrote one), so the lead story's title above the fold is usually
 * Arabic, and the header's language toggle on French pages is «ع». The Arabic file is 10 KB after subsetting;
 * without a preload the browser finds it only once the page is laid out, after the CSS.
 */
export function fontPreloads(lang: Language): FontPreload[] {
  return lang === "ar" ? [ARABIC_400] : [INTER_400, ARABIC_400];
}
