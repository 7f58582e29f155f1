/** Articles (back-office.md §2 "Article management", public-site.md §3 articles): the sections' long reads. */
import { authors, body, category, defineContentType, image, summary, title, titleFr, v, tags, searchAndSharing, urgent } from "./define.ts";

/**
 * The sections' categories (public-site.md §2–3: culture, politics, literature, the emirates, opinion, each
 * parent with its filter chips); the news-only ones (breaking, sports, economy) and "general" are not articles'.
 */
export const ARTICLE_CATEGORIES = [
  ...["culture", "music", "crafts", "manuscripts", "architecture"],
  "politics",
  ...["literature", "poetry", "prose", "folktales", "translations"],
  ...["emirates", "adrar", "brakna", "taganit", "trarza"],
  ...["opinion", "op-ed", "analysis", "columns"],
] as const;

export default defineContentType({
  type: "article",
  publicPath: "/articles",
  detailPage: true,
  table: "articles",
  segment: "articles",
  fields: [
    title({ min: 5, message: v("title5") }),
    titleFr,
    summary("excerpt", { min: 10, max: 1000, message: v("excerpt10") }),
    body({ required: true }),
    category(),
    authors,
    tags,
    image,
    { name: "is_featured", kind: "boolean", label: "newsroom.f.featured" },
    urgent,
    ...searchAndSharing,
  ],
  categories: ARTICLE_CATEGORIES,
  columns: { title: "excerpt", category_id: "category", publish_date: "date", status: "status" },
  listOrder: "publish_date",
  summaryField: "excerpt",
  card: {
    fields: [
      "title",
      "titleFr",
      "excerpt",
      "excerptFr",
      "authorName",
      "authorNameFr",
      "publishDate",
      "imageUrl",
      "pageSlug",
      "isFeatured",
      "viewCount",
      "region",
      "isTrending",
      "contentType",
      "videoUrl",
      "readTimeMinutes",
      "isDemo",
    ],
    category: true,
    bylines: true,
  },
  // /api/articles' item: its names are a contract integrations read.
  api: {
    id: "id",
    slug: "pageSlug",
    url: "$url",
    title: "title",
    titleFr: "titleFr",
    excerpt: "excerpt",
    excerptFr: "excerptFr",
    author: "authorName",
    imageUrl: "imageUrl",
    publishDate: "publishDate",
    featured: "isFeatured",
    views: "viewCount",
    readTime: "readTimeMinutes",
    category: "$category",
  },
  folders: { share_image_url: "articles", image_url: "articles" },
  search: { title: ["title", "title_fr"], body: ["excerpt", "excerpt_fr", "content", "content_fr"] },
  viewCounter: true,
  dashboard: { position: 1, tone: "border-s-desert-500" },
  upload: { position: 2, accent: "border-t-desert-500" },
  detail: {
    kicker: { category: true },
    facts: [
      { field: "authorName", label: "common.by", testId: "detail-author" },
      { field: "readTimeMinutes", counted: "detail.readTime", testId: "detail-read-time" },
      { field: "viewCount", counted: "detail.views", testId: "detail-views" },
    ],
    verseCategories: ["poetry"],
    // videoUrl: a video article (the politics page's) plays it on its page (media, below).
    readOnly: ["contentFr", "excerptFr", "authorNameFr", "authorBio", "readTimeMinutes", "viewCount", "videoUrl"],
    // A video article (the politics page's coverage) plays its video where the others show their image.
    media: { video: "videoUrl" },
    relatedTitle: "detail.relatedArticles",
    schema: { type: "NewsArticle", byCategory: { opinion: "OpinionNewsArticle" }, author: ["authorName"] },
  },
});
