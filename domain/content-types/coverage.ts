/** Coverage (back-office.md §2, public-site.md §3 coverage): reports of an event, with its place, date and reporter. */
import { authors, body, captions, defineContentType, image, select, summary, title, titleFr, v, video, tags, searchAndSharing, urgent } from "./define.ts";

export const COVERAGE_TYPES = ["live", "event", "conference", "interview", "report", "cultural"] as const;

export default defineContentType({
  type: "coverage",
  publicPath: "/coverage",
  detailPage: true,
  table: "coverages",
  segment: "coverage",
  fields: [
    title({ min: 5, message: v("title5") }),
    titleFr,
    summary("excerpt", { min: 10, max: 1000, message: v("excerpt10") }),
    body({ required: true }),
    select("coverage_type", COVERAGE_TYPES, "coverageTypes"),
    { name: "event_location", kind: "text", label: "newsroom.f.eventLocation", required: true, min: 2, max: 200, message: v("eventLocation") },
    { name: "event_date", kind: "date", label: "newsroom.f.eventDate", required: true, message: v("eventDate") },
    { name: "reporter_name", kind: "text", label: "newsroom.f.reporter", required: true, min: 2, max: 120, message: v("reporter") },
    authors,
    tags,
    image,
    video,
    captions,
    urgent,
    ...searchAndSharing,
  ],
  columns: {
    title: "text",
    coverage_type: "option",
    event_location: "text",
    reporter_name: "text",
    event_date: "date",
    status: "status",
  },
  listOrder: "created_at",
  summaryField: "excerpt",
  // The live state makes the «مباشر» badge of its cards (issue 44).
  card: { fields: ["title", "titleFr", "excerpt", "imageUrl", "pageSlug", "publishDate", "liveStartedAt", "liveEndedAt"] },
  folders: { share_image_url: "coverage/images", image_url: "coverage/images", video_url: "coverage/videos", captions_url: "coverage/captions" },
  search: { title: ["title", "title_fr"], body: ["excerpt", "content"] },
  viewCounter: false,
  live: true,
  dashboard: { position: 5, tone: "border-s-sand-300" },
  upload: { position: 3, accent: "border-t-palm-600" },
  detail: {
    kicker: { option: { field: "coverageType", labels: "coverageTypes" } },
    facts: [
      { field: "eventLocation", label: "detail.eventLocation" },
      { field: "eventDate", label: "detail.eventDate", date: true },
      { field: "reporterName", label: "detail.reporter" },
    ],
    media: { video: "videoUrl", captions: "captionsUrl" },
    relatedTitle: "detail.relatedCoverage",
    schema: { type: "ReportageNewsArticle", author: ["reporterName", "authorName"], place: "eventLocation" },
  },
});
