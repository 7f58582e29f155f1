/**
 * Programs and podcasts listings (public-site.md §2 "Programs and podcasts page": 12 each, newest first)
 * and the home page's mixed strip of the latest of both, declared in domain/listings.ts.
 */
import type { Database } from "#server/db/client.server.ts";
import { LISTINGS } from "#domain/listings.ts";
import { listCards, type Card, type CardOf } from "./listings.server.ts";

export const PROGRAMS_PAGE_SIZE: number = LISTINGS.programs.limit;

export type ProgramCard = Card<"program">;
export type PodcastCard = Card<"podcast">;

export function listPublishedPrograms(db: Database, limit = PROGRAMS_PAGE_SIZE) {
  return listCards(db, LISTINGS.programs, { limit });
}

export function listPublishedPodcasts(db: Database, limit = PROGRAMS_PAGE_SIZE) {
  return listCards(db, LISTINGS.podcasts, { limit });
}

/**
 * Published coverage of events, newest first. The spec gives coverage no listing page of its own; the
 * people's sitemap lists it so a reader can reach every item by links, not only through search.
 */
export function listPublishedCoverage(db: Database, limit = PROGRAMS_PAGE_SIZE) {
  return listCards(db, LISTINGS.coverage, { limit });
}

type WithKind<C> = C extends { type: infer T } ? C & { kind: T } : never;
/** A program's or a podcast's card, `kind` naming which. */
export type ShowCard = WithKind<CardOf<typeof LISTINGS.shows>>;

/** The newest programs and podcasts together, newest first (home: 4); `kind` names the type. */
export async function listLatestShows(db: Database, limit = 4): Promise<ShowCard[]> {
  const rows = await listCards(db, LISTINGS.shows, { limit });
  return rows.map((row) => ({ ...row, kind: row.type }) as ShowCard);
}
