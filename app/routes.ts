import { type RouteConfig, type RouteConfigEntry, index, layout, prefix, route } from "@react-router/dev/routes";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";
import { LANGUAGE_PREFIX, PREFIXED_LANGUAGES } from "#domain/addresses.ts";
import type { Language } from "#domain/language.ts";

/**
 * The newsroom's screens of one content type (back-office.md §2): its list, the editor (new and existing
 * items), revisions and draft preview. One module per screen serves every type; it reads the type from
 * the URL's segment through the registry (domain/content-types/).
 */
function contentScreens({ segment }: { segment: string }) {
  return [
    route(segment, "routes/admin/content-list.tsx", { id: `admin-${segment}` }),
    route(`${segment}/new`, "routes/admin/content-editor.tsx", { id: `admin-${segment}-new` }),
    route(`${segment}/:id`, "routes/admin/content-editor.tsx", { id: `admin-${segment}-edit` }),
    route(`${segment}/:id/revisions`, "routes/admin/content-revisions.tsx", { id: `admin-${segment}-revisions` }),
    route(`${segment}/:id/preview`, "routes/admin/content-preview.tsx", { id: `admin-${segment}-preview` }),
  ];
}

/**
 * The reader's pages and feeds in one language (docs/decisions/0143-language-addresses.md): the same modules at
 * `/…`, `/fr/…` and `/en/…`; the loaders read the language from the address (server/http/language.server.ts).
 * Arabic keeps the route ids it always had; the other languages' ids end in `-fr`, `-en`.
 */
function readerRoutes(lang: Language): RouteConfigEntry[] {
  const id = (file: string, name?: string) => {
    const base = name ?? file.replace(/\.tsx?$/, "");
    return lang === "ar" ? base : `${base}-${lang}`;
  };
  const page = (path: string, file: string, name?: string) => route(path, file, { id: id(file, name) });
  return [
    page("rss.xml", "routes/feeds/rss-xml.ts"),
    page("podcasts/feed.xml", "routes/feeds/podcast-feed-xml.ts"),
    page("programs/:slug/feed.xml", "routes/feeds/podcast-feed-xml.ts", "program-podcast-feed"),
    page("tags/:slug/feed.xml", "routes/feeds/tag-feed-xml.ts"),
    // Live coverage (issue 44): the entries after a cursor as JSON, and the ticker's JSON; the stream is Express's
    // (server/http/live-stream.server.ts), in front of React Router.
    page("coverage/:slug/entries", "routes/public/coverage-entries.ts"),
    page("live.json", "routes/feeds/live-json.ts"),
    // The footer's newsletter sign-up (issue 46): an action that answers back on the page it was posted from.
    page("newsletter/subscribe", "routes/public/newsletter-subscribe.ts"),
    layout("routes/public/layout.tsx", { id: id("routes/public/layout") }, [
      index("routes/public/home.tsx", { id: id("routes/public/home") }),
      page("news", "routes/public/news.tsx"),
      page("programs", "routes/public/programs.tsx"),
      // One detail page module for every type with a page of its own (public-site.md §2 "Detail screens").
      ...ALL_CONTENT_TYPES.filter((d) => d.detailPage).map(({ type, publicPath }) =>
        page(`${publicPath.slice(1)}/:slug`, "routes/public/content-detail.tsx", `detail-${type}`),
      ),
      page("coverage/:slug/entries/:entryId", "routes/public/coverage-entry.tsx"),
      page("authors/:slug", "routes/public/author.tsx"),
      page("emirates", "routes/public/emirates.tsx"),
      page("media", "routes/public/media.tsx"),
      page("videos", "routes/public/videos.tsx"),
      page("culture", "routes/public/culture.tsx"),
      page("politics", "routes/public/politics.tsx"),
      page("literature", "routes/public/literature.tsx"),
      page("opinion", "routes/public/opinion.tsx"),
      page("newsletter/confirm", "routes/public/newsletter-confirm.tsx"),
      page("newsletter/unsubscribe", "routes/public/newsletter-unsubscribe.tsx"),
      page("newsletter/preferences", "routes/public/newsletter-preferences.tsx"),
      page("contact", "routes/public/contact.tsx"),
      page("privacy", "routes/public/legal.tsx", "privacy"),
      page("terms", "routes/public/legal.tsx", "terms"),
      page("sitemap", "routes/public/sitemap.tsx"),
      page("search", "routes/public/search.tsx"),
      page("tags/:slug", "routes/public/tag.tsx"),
      // The archive by date (decision 0144): a year, a month, a day, in the newsroom's time zone.
      page("archive/:year", "routes/public/archive.tsx", "archive-year"),
      page("archive/:year/:month", "routes/public/archive.tsx", "archive-month"),
      page("archive/:year/:month/:day", "routes/public/archive.tsx", "archive-day"),
      page("facebook", "routes/public/facebook.tsx"),
      page("debug/facebook", "routes/debug/facebook.tsx"),
      page("auth", "routes/auth/auth.tsx"),
      page("auth/forgot", "routes/auth/forgot.tsx"),
      page("auth/reset", "routes/auth/reset.tsx"),
      page("auth/verify", "routes/auth/verify.tsx"),
      page("setup", "routes/auth/setup.tsx"),
      page("404", "routes/public/not-found.tsx", "not-found"),
      page("*", "routes/public/not-found.tsx", "unknown-url"),
    ]),
  ];
}

/** Every URL of the product, in one place. */
export default [
  route("language", "routes/language.ts"),
  // Night reading and text size (issue 46, decision 0149): the footer form's post without JavaScript.
  route("preferences", "routes/preferences.ts"),
  route("api/auth/*", "routes/api/auth.$.ts"),
  route("auth/sign-out", "routes/auth/sign-out.ts"),
  route("api/news", "routes/api/news.ts"),
  route("api/admin/contacts", "routes/api/admin-contacts.ts"),
  route("api/admin/contacts/:id", "routes/api/admin-contact.ts"),
  route("api/admin/videos", "routes/api/admin-videos.ts"),
  route("api/admin/videos/:guid", "routes/api/admin-video.ts"),
  route("api/admin/videos/:guid/upload", "routes/api/admin-video-upload.ts"),
  route("api/admin/library", "routes/api/admin-library.ts"),
  route("api/admin/library/:id", "routes/api/admin-library-file.ts"),
  route("api/admin/calendar", "routes/api/admin-calendar.ts"),
  route("api/admin/tags", "routes/api/admin-tags.ts"),
  route("api/admin/tags/merge", "routes/api/admin-tags-merge.ts"),
  route("api/admin/tags/:id", "routes/api/admin-tag.ts"),
  route("api/admin/authors", "routes/api/admin-authors.ts"),
  route("api/admin/authors/:id", "routes/api/admin-author.ts"),
  route("api/admin/audit", "routes/api/admin-audit.ts"),
  route("api/admin/audit.csv", "routes/api/admin-audit.ts", { id: "api-admin-audit-csv" }),
  // Audience figures (issue 45): one item's, the most read items, the searches, and the dashboard's tables as CSV.
  route("api/admin/analytics/items/:type/:id", "routes/api/admin-analytics-item.ts"),
  route("api/admin/analytics/top", "routes/api/admin-analytics-top.ts"),
  route("api/admin/analytics/searches", "routes/api/admin-analytics-searches.ts"),
  route("api/admin/analytics.csv", "routes/api/admin-analytics-csv.ts"),
  route("api/admin/coverage/:id/entries", "routes/api/admin-coverage-entries.ts"),
  route("api/admin/coverage/:id/entries/:entryId", "routes/api/admin-coverage-entry.ts"),
  route("api/admin/:type", "routes/api/admin-content.ts"),
  route("api/admin/:type/bulk", "routes/api/admin-content-bulk.ts"),
  route("api/admin/:type/:id", "routes/api/admin-content-item.ts"),
  route("api/admin/:type/:id/autosave", "routes/api/admin-content-autosave.ts"),
  route("api/admin/:type/:id/corrections", "routes/api/admin-content-corrections.ts"),
  route("api/admin/:type/:id/lock", "routes/api/admin-content-lock.ts"),
  route("api/admin/:type/:id/notes", "routes/api/admin-content-notes.ts"),
  route("api/videos/:guid/playback", "routes/api/video-playback.ts"),
  route("api/articles", "routes/api/articles.ts"),
  route("api/categories", "routes/api/categories.ts"),
  route("api/literature", "routes/api/literature.ts"),
  route("api/literature-types", "routes/api/literature-types.ts"),
  route("api/search", "routes/api/search.ts"),
  route("api/search/suggest", "routes/api/search-suggest.ts"),
  route("api/push/subscriptions", "routes/api/push-subscriptions.ts"),
  route("api/views", "routes/api/views.ts"),
  route("api/*", "routes/api/not-found.ts"),
  route("sitemap.xml", "routes/feeds/sitemap-xml.ts"),
  route("sitemaps/:file", "routes/feeds/sitemap-file.ts"),
  route("robots.txt", "routes/feeds/robots-txt.ts"),
  route("social/image/:key", "routes/social/image.ts"),
  route("social/share", "routes/social/share-image.ts"),
  route("social/logo.png", "routes/social/publisher-logo.ts"),
  // The reader's pages and feeds once per language (issue 42): Arabic at the root, French and English under their prefix.
  ...readerRoutes("ar"),
  ...PREFIXED_LANGUAGES.flatMap((lang) => prefix(LANGUAGE_PREFIX[lang].slice(1), readerRoutes(lang))),
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      ...ALL_CONTENT_TYPES.flatMap(contentScreens),
      route("videos", "routes/admin/videos.tsx"),
      route("contacts", "routes/admin/contacts.tsx"),
      route("upload", "routes/admin/upload.tsx"),
      route("library", "routes/admin/library.tsx"),
      route("calendar", "routes/admin/calendar.tsx"),
      route("tags", "routes/admin/tags.tsx"),
      route("authors", "routes/admin/authors.tsx"),
      route("authors/new", "routes/admin/author-editor.tsx", { id: "admin-authors-new" }),
      route("authors/:id", "routes/admin/author-editor.tsx", { id: "admin-authors-edit" }),
      route("users", "routes/admin/users.tsx"),
      route("newsletter", "routes/admin/newsletter.tsx"),
      route("audit", "routes/admin/audit.tsx"),
      route("analytics", "routes/admin/analytics.tsx"),
    ]),
  ]),
] satisfies RouteConfig;
