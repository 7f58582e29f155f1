/** The header's navigation (public-site.md §2, "Top navigation"); test ids are nav-link-{slug}. */
export const NAV_ITEMS = [
  { slug: "home", to: "/", label: "nav.home" },
  { slug: "news", to: "/news", label: "nav.news" },
  { slug: "culture", to: "/culture", label: "nav.culture" },
  { slug: "politics", to: "/politics", label: "nav.politics" },
  { slug: "literature", to: "/literature", label: "nav.literature" },
  { slug: "emirates", to: "/emirates", label: "nav.emirates" },
  { slug: "programs", to: "/programs", label: "nav.programs" },
  { slug: "media", to: "/media", label: "nav.media" },
  { slug: "opinion", to: "/opinion", label: "nav.opinion" },
  { slug: "contact", to: "/contact", label: "nav.contact" },
] as const;

/**
 * How many NAV_ITEMS the desktop bar shows in a row, per language, from `lg` (1024px) and from `xl` (1280px,
 * where the page stops widening); the rest sit in the bar's "more" menu. Fixed numbers rather than measuring,
 * so the bar is right before and without JavaScript; tests/e2e/reading/directions.e2e.test.ts checks that
 * nothing overflows at 1024, 1280 and 1440 in each language, so a longer label shows up there.
 */
export const NAV_FIT: Record<"ar" | "fr" | "en", { lg: number; xl: number }> = {
  // Measured in Chromium (the bar is 992px wide at 1024, 1248px from 1280; "more" takes about 90px); each
  // count leaves some room for a font a little wider than ours.
  ar: { lg: 8, xl: 10 },
  fr: { lg: 5, xl: 7 },
  en: { lg: 5, xl: 7 },
};

/** Public sections outside the main navigation (the header has room for ten): linked from the footer and both sitemaps. */
export const MORE_SECTIONS = [{ to: "/videos", label: "videos.title" }] as const;

export const FOOTER_LINKS = {
  quickLinks: [
    { to: "/", label: "nav.home" },
    { to: "/news", label: "nav.news" },
    { to: "/culture", label: "nav.culture" },
    { to: "/politics", label: "nav.politics" },
    { to: "/literature", label: "nav.literature" },
    { to: "/contact", label: "nav.contact" },
  ],
  categories: [{ to: "/emirates", label: "nav.emirates" }, { to: "/media", label: "nav.media" }, { to: "/opinion", label: "nav.opinion" }, ...MORE_SECTIONS],
  legal: [
    { to: "/privacy", label: "footer.privacy" },
    { to: "/terms", label: "footer.terms" },
    { to: "/sitemap", label: "footer.sitemap" },
    // The archive by date (decision 0144): the door to everything older than the lists' pages.
    { to: `/archive/${new Date().getUTCFullYear()}`, label: "archive.title" },
  ],
} as const;

/** A same-site path to return to after an action, never an open redirect. */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (value.length > 2000 || /\p{Cc}/u.test(value)) return fallback;
  return value;
}

/**
 * Where a reading page's next document load pays to start early (issue 30, decision 0133): the listings its
 * navigation, footer and pagers lead to, fetched by the browser when the pointer rests on the link or a finger
 * presses it ("moderate"), and answered by the page cache. Not detail pages, which count a view when requested,
 * nor the account pages, the back-office, the API or search (which counts against the reader's budget). Speculation
 * rules: no script, and the browser leaves them out on Save-Data or a weak battery. Inline in every reading page
 * (root.tsx), allowed by its hash in the Content-Security-Policy (server/http/security.server.ts). The pages left out
 * are left out in every language: at the root (Arabic) and under `/fr`, `/en` (issue 42).
 */
const ANY_LANGUAGE = "{/:lang(fr|en)}?";
export const PREFETCH_RULES = JSON.stringify({
  prefetch: [
    {
      where: {
        and: [
          { selector_matches: "nav a[href], footer a[href], a[rel~=next], a[rel~=prev]" },
          {
            not: {
              href_matches: ["/admin{/*}?", `${ANY_LANGUAGE}/auth{/*}?`, `${ANY_LANGUAGE}/setup{/*}?`, "/api/*", `${ANY_LANGUAGE}/search{/*}?`, "/*.*"],
            },
          },
        ],
      },
      eagerness: "moderate",
    },
  ],
});
