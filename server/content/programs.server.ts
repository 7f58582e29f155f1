/**
 * Programs and podcasts listings (public-site.md §2 "Programs and podcasts page": 12 each, newest first)
 * and the home page's mixed strip of the latest of both.
 */
import { desc } from "drizzle-orm";
import type { Database } from "#server/db/client.server.ts";
import { coverages, podcasts, programs } from "#server/db/schema.server.ts";
import { isPublished } from "./published.server.ts";

export const PROGRAMS_PAGE_SIZE = 12;

const programCard = {
  id: programs.id,
  title: programs.title,
  titleFr: programs.titleFr,
  description: programs.description,
  imageUrl: programs.imageUrl,
  pageSlug: programs.pageSlug,
  publishDate: programs.publishDate,
  programType: programs.programType,
  episodeNumber: programs.episodeNumber,
  duration: programs.duration,
  hostName: programs.hostName,
};

const podcastCard = {
  id: podcasts.id,
  title: podcasts.title,
  titleFr: podcasts.titleFr,
  description: podcasts.description,
  imageUrl: podcasts.imageUrl,
  pageSlug: podcasts.pageSlug,
  publishDate: podcasts.publishDate,
  episodeNumber: podcasts.episodeNumber,
  duration: podcasts.duration,
  hostName: podcasts.hostName,
};

export type ProgramCard = Awaited<ReturnType<typeof listPublishedPrograms>>[number];
export type PodcastCard = Awaited<ReturnType<typeof listPublishedPodcasts>>[number];

export function listPublishedPrograms(db: Database, limit = PROGRAMS_PAGE_SIZE) {
  return db.select(programCard).from(programs).where(isPublished(programs)).orderBy(desc(programs.publishDate), desc(programs.id)).limit(limit);
}

export function listPublishedPodcasts(db: Database, limit = PROGRAMS_PAGE_SIZE) {
  return db.select(podcastCard).from(podcasts).where(isPublished(podcasts)).orderBy(desc(podcasts.publishDate), desc(podcasts.id)).limit(limit);
}

/**
 * Published coverage of events, newest first. The spec gives coverage no listing page of its own; the
 * people's sitemap lists it so a reader can reach every item by links, not only through search.
 */
export function listPublishedCoverage(db: Database, limit = PROGRAMS_PAGE_SIZE) {
  return db
    .select({ id: coverages.id, title: coverages.title, titleFr: coverages.titleFr, pageSlug: coverages.pageSlug, publishDate: coverages.publishDate })
    .from(coverages)
    .where(isPublished(coverages))
    .orderBy(desc(coverages.publishDate), desc(coverages.id))
    .limit(limit);
}

export type ShowCard = (ProgramCard & { kind: "program" }) | (PodcastCard & { kind: "podcast"; programType?: undefined });

/** The newest programs and podcasts together, newest first (home: 4). */
export async function listLatestShows(db: Database, limit = 4): Promise<ShowCard[]> {
  const [p, c] = await Promise.all([listPublishedPrograms(db, limit), listPublishedPodcasts(db, limit)]);
  return [...p.map((x) => ({ ...x, kind: "program" as const })), ...c.map((x) => ({ ...x, kind: "podcast" as const }))]
    .sort((a, b) => b.publishDate.getTime() - a.publishDate.getTime() || b.id - a.id)
    .slice(0, limit);
}
