/**
 * Shapes of the demo content. The data files stay plain arrays an editor can read and correct; seed.ts
 * turns them into rows (dates, images, read time, view counts) so that derived values stay consistent.
 */
import type { MEDIA_TYPES } from "#domain/media-library.ts";
import type { COVERAGE_TYPES, NEWS_PRIORITIES, PROGRAM_TYPES, REGIONS, CATEGORY_TYPES } from "#server/db/schema.server.ts";
import type { AuthorKey } from "./authors.ts";

export type Region = (typeof REGIONS)[number];

/** Fields every seeded content row has. `hoursAgo` pins its age; without it the age comes from a hash of the slug. */
type Common = {
  /** page_slug: lowercase latin letters, digits and single hyphens, unique per table. */
  slug: string;
  title: string;
  titleFr?: string;
  hoursAgo?: number;
  /** Drafts are seeded to show the back-office states; they must never appear publicly. */
  draft?: boolean;
};

export type CategorySeed = {
  slug: string;
  name: string;
  nameFr: string;
  type: (typeof CATEGORY_TYPES)[number];
  parent?: string;
  description?: string;
  descriptionFr?: string;
};

export type ArticleSeed = Common & {
  category: string;
  excerpt: string;
  excerptFr?: string;
  /** Paragraphs (joined by a blank line), or verse lines (joined by a newline) when `verse` is set. */
  body: string[];
  verse?: boolean;
  author: AuthorKey;
  region?: Region;
  trending?: boolean;
  /** A video report: content_type 'video' with the sample video as video_url. */
  video?: boolean;
  featured?: boolean;
  views?: number;
};

export type NewsSeed = Common & {
  category: string;
  excerpt: string;
  excerptFr?: string;
  body: string[];
  priority: (typeof NEWS_PRIORITIES)[number];
  location: string;
  author: AuthorKey;
};

export type ProgramSeed = Common & {
  type: (typeof PROGRAM_TYPES)[number];
  episode: number | null;
  season?: string;
  description: string;
  body: string[];
  host: string;
  guest?: string;
  /** mm:ss */
  duration: string;
  author: AuthorKey;
  /** The episode's full text, one string a paragraph. */
  transcript?: string[];
  /** WebVTT captions for the demo video, one cue a line (the demo video is 4 s long: cues of 2 s). */
  captions?: string[];
};

export type PodcastSeed = Common & {
  episode: number;
  season: string;
  description: string;
  body: string[];
  host: string;
  guest?: string;
  duration: string;
  /** Which generated sound file plays for this episode. */
  audio: "podcast-intro" | "tidinit-motif";
  author: AuthorKey;
  /** The episode's full text, one string a paragraph. */
  transcript?: string[];
};

export type CoverageSeed = Common & {
  type: (typeof COVERAGE_TYPES)[number];
  excerpt: string;
  body: string[];
  location: string;
  /** How many days before publication the event took place. */
  eventDaysBefore: number;
  reporter: string;
  video?: boolean;
  author: AuthorKey;
};

export type MediaSeed = Common & {
  type: (typeof MEDIA_TYPES)[number];
  description: string;
  author: AuthorKey;
  category: string;
  region?: Region;
  featured?: boolean;
  trending?: boolean;
  views?: number;
  durationSeconds?: number;
  /** Documents only: the Latin text printed in the generated PDF (standard PDF fonts cannot shape Arabic). */
  pdfText?: string[];
};
