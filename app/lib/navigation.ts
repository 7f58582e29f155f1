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
  ],
} as const;

/** A same-site path to return to after an action, never an open redirect. */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (value.length > 2000 || /\p{Cc}/u.test(value)) return fallback;
  return value;
}
