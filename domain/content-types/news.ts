/** News items (back-office.md §2, public-site.md §3 news): short, dated, with a priority and a place. */
import { authors, body, category, defineContentType, image, select, summary, title, titleFr, v, tags, searchAndSharing, urgent } from "./define.ts";

export const NEWS_PRIORITIES = ["high", "medium", "low"] as const;
/** back-office.md §3: "News category slugs: breaking (عاجل), politics, culture, sports, economy." */
export const NEWS_CATEGORIES = ["breaking", "politics", "culture", "sports", "economy"] as const;

export default defineContentType({
  type: "news",
  publicPath: "/news",
  detailPage: true,
  table: "news",
  segment: "news",
  fields: [
    title({ min: 5, message: v("title5") }),
    titleFr,
    summary("excerpt", { min: 10, max: 1000, message: v("excerpt10") }),
    body({ required: true }),
    category(),
    select("priority", NEWS_PRIORITIES, "newsroom.priority", { defaultValue: "medium" }),
    { name: "location", kind: "text", label: "newsroom.f.location", max: 200 },
    authors,
    tags,
    image,
    urgent,
    ...searchAndSharing,
  ],
  categories: NEWS_CATEGORIES,
  columns: {
    title: "text",
    category_id: "category",
    priority: "option",
    location: "text",
    author_name: "text",
    publish_date: "date",
    status: "status",
  },
  listOrder: "created_at",
  summaryField: "excerpt",
  card: {
    fields: ["title", "titleFr", "excerpt", "excerptFr", "imageUrl", "location", "priority", "pageSlug", "publishDate", "createdAt"],
    category: true,
    bylines: true,
  },
  folders: { share_image_url: "news", image_url: "news" },
  search: { title: ["title", "title_fr"], body: ["excerpt", "excerpt_fr", "content", "content_fr"] },
  viewCounter: false,
  dashboard: { position: 2, tone: "border-s-desert-500" },
  upload: { position: 1, accent: "border-t-desert-600" },
  detail: {
    kicker: { category: true, fallback: "nav.news", href: "/news" },
    facts: [
      { field: "priority", equals: "high", template: "detail.priorityHigh" },
      { field: "location", label: "detail.location", testId: "detail-location" },
      { field: "authorName", label: "common.by", testId: "detail-author" },
    ],
    readOnly: ["contentFr", "excerptFr"],
    relatedTitle: "detail.relatedNews",
    schema: { type: "NewsArticle", author: ["authorName"], place: "location" },
  },
});
