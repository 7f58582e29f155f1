import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";

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

/** Every URL of the product, in one place. */
export default [
  route("language", "routes/language.ts"),
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
  route("api/admin/:type", "routes/api/admin-content.ts"),
  route("api/admin/:type/bulk", "routes/api/admin-content-bulk.ts"),
  route("api/admin/:type/:id", "routes/api/admin-content-item.ts"),
  route("api/admin/:type/:id/autosave", "routes/api/admin-content-autosave.ts"),
  route("api/videos/:guid/playback", "routes/api/video-playback.ts"),
  route("api/articles", "routes/api/articles.ts"),
  route("api/categories", "routes/api/categories.ts"),
  route("api/literature", "routes/api/literature.ts"),
  route("api/literature-types", "routes/api/literature-types.ts"),
  route("api/search", "routes/api/search.ts"),
  route("api/*", "routes/api/not-found.ts"),
  route("sitemap.xml", "routes/feeds/sitemap-xml.ts"),
  route("sitemaps/:file", "routes/feeds/sitemap-file.ts"),
  route("robots.txt", "routes/feeds/robots-txt.ts"),
  route("rss.xml", "routes/feeds/rss-xml.ts"),
  route("podcasts/feed.xml", "routes/feeds/podcast-feed-xml.ts"),
  route("tags/:slug/feed.xml", "routes/feeds/tag-feed-xml.ts"),
  route("social/image/:key", "routes/social/image.ts"),
  route("social/share", "routes/social/share-image.ts"),
  layout("routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("news", "routes/public/news.tsx"),
    route("programs", "routes/public/programs.tsx"),
    // One detail page module for every type with a page of its own (public-site.md §2 "Detail screens").
    ...ALL_CONTENT_TYPES.filter((d) => d.detailPage).map(({ type, publicPath }) =>
      route(`${publicPath.slice(1)}/:slug`, "routes/public/content-detail.tsx", { id: `detail-${type}` }),
    ),
    route("authors/:slug", "routes/public/author.tsx"),
    route("emirates", "routes/public/emirates.tsx"),
    route("media", "routes/public/media.tsx"),
    route("videos", "routes/public/videos.tsx"),
    route("culture", "routes/public/culture.tsx"),
    route("politics", "routes/public/politics.tsx"),
    route("literature", "routes/public/literature.tsx"),
    route("opinion", "routes/public/opinion.tsx"),
    route("newsletter/confirm", "routes/public/newsletter-confirm.tsx"),
    route("contact", "routes/public/contact.tsx"),
    route("privacy", "routes/public/legal.tsx", { id: "privacy" }),
    route("terms", "routes/public/legal.tsx", { id: "terms" }),
    route("sitemap", "routes/public/sitemap.tsx"),
    route("search", "routes/public/search.tsx"),
    route("tags/:slug", "routes/public/tag.tsx"),
    route("facebook", "routes/public/facebook.tsx"),
    route("debug/facebook", "routes/debug/facebook.tsx"),
    route("auth", "routes/auth/auth.tsx"),
    route("auth/forgot", "routes/auth/forgot.tsx"),
    route("auth/reset", "routes/auth/reset.tsx"),
    route("auth/verify", "routes/auth/verify.tsx"),
    route("setup", "routes/auth/setup.tsx"),
    route("404", "routes/public/not-found.tsx", { id: "not-found" }),
    route("*", "routes/public/not-found.tsx", { id: "unknown-url" }),
  ]),
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
    ]),
  ]),
] satisfies RouteConfig;
