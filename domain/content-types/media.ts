/** Media items (back-office.md §2 "Media management", public-site.md §2 "Media library"): a video, audio or image file. */
import { authors, category, defineContentType, image, select, summary, title, titleFr, v, tags, searchAndSharing, urgent } from "./define.ts";

/** What an editor may choose for an item (the table's media_type also allows "document": domain/media-library.ts). */
export const MEDIA_KINDS = ["video", "audio", "image"] as const;

export default defineContentType({
  type: "media",
  publicPath: "/media",
  // Media items have no page of their own: they open in /media (#media-{id}); the staff preview still shows one.
  detailPage: false,
  table: "media",
  segment: "media",
  fields: [
    // back-office.md §5: still 3 characters once markup is taken out.
    title({ min: 3, max: 200, message: v("mediaTitleMin"), tooLong: v("mediaTitleMax"), plainText: v("mediaTitleInvalid") }),
    titleFr,
    summary("description", { min: 10, max: 1000, message: v("mediaDescriptionMin"), tooLong: v("mediaDescriptionMax") }),
    category(v("mediaCategory")),
    select("media_type", MEDIA_KINDS, "newsroom.mediaType", { defaultValue: "video" }),
    { name: "file_url", kind: "file", label: "newsroom.f.file" },
    authors,
    tags,
    image,
    urgent,
    ...searchAndSharing,
  ],
  columns: {
    title: "text",
    category_id: "category",
    media_type: "option",
    description: "excerpt",
    file_url: "media",
    publish_date: "date",
    status: "status",
  },
  listOrder: "created_at",
  summaryField: "description",
  card: {
    fields: [
      "title",
      "titleFr",
      "description",
      "mediaType",
      "publishDate",
      "fileUrl",
      "thumbnailUrl",
      "imageUrl",
      "authorName",
      "isFeatured",
      { name: "views", column: "viewCount" },
      "durationSeconds",
      "pageSlug",
      "isDemo",
    ],
    category: true,
  },
  folders: { share_image_url: "media/images", image_url: "media/images", file_url: "media/files" },
  openMediaField: "file_url",
  search: null,
  viewCounter: true,
  dashboard: { position: 6, tone: "border-s-sand-300" },
  upload: { position: 6, accent: "border-t-ink-soft" },
  detail: {
    kicker: { category: true, href: "/media" },
    facts: [{ field: "authorName", label: "common.by", testId: "detail-author" }],
    media: { byKind: { kind: "mediaType", source: "fileUrl" } },
    relatedTitle: "detail.related",
    schema: { type: "Article", author: ["authorName"] },
  },
});
