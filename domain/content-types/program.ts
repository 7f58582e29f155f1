/** Programs (back-office.md §2, public-site.md §3 programs): TV episodes of the station's shows. */
import { body, captions, defineContentType, image, select, SHOW_FACTS, showFields, summary, title, titleFr, transcript, v, video } from "./define.ts";

export const PROGRAM_TYPES = ["khutwa", "maqal", "ayan", "interview", "documentary", "cultural"] as const;

export default defineContentType({
  type: "program",
  publicPath: "/programs",
  detailPage: true,
  table: "programs",
  segment: "programs",
  fields: [
    title({ min: 5, message: v("title5") }),
    titleFr,
    summary("description", { min: 20, max: 2000, message: v("description20") }),
    body({ required: false }),
    select("program_type", PROGRAM_TYPES, "programTypes"),
    ...showFields(2),
    // A blank air date is the day of the save (server/content/newsroom.server.ts).
    { name: "air_date", kind: "date", label: "newsroom.f.airDate" },
    video,
    captions,
    transcript,
    image,
  ],
  columns: {
    title: "text",
    program_type: "option",
    episode_number: "text",
    host_name: "text",
    duration: "text",
    video_url: "media",
    air_date: "date",
    status: "status",
  },
  listOrder: "created_at",
  summaryField: "description",
  folders: { image_url: "programs/thumbnails", video_url: "programs/videos", captions_url: "programs/captions" },
  openMediaField: "video_url",
  search: { title: ["title", "title_fr"], body: ["description", "content"] },
  viewCounter: false,
  dashboard: { position: 4, tone: "border-s-palm-600" },
  upload: { position: 5, accent: "border-t-sand-300" },
  detail: {
    kicker: { option: { field: "programType", labels: "programTypes" }, href: "/programs" },
    facts: [...SHOW_FACTS, { field: "airDate", label: "detail.airDate", date: true }],
    media: { video: "videoUrl", captions: "captionsUrl" },
    transcript: "transcript",
    relatedTitle: "detail.relatedPrograms",
    schema: { type: "TVEpisode", author: ["hostName", "authorName"], episode: "episodeNumber", genre: "programType" },
  },
});
