/**
 * What programs (TV episodes of the station's shows, domain/content-types/program.ts) do that other types do
 * not: a blank air date is the day of the save, and a program whose podcast episodes are published has a
 * podcast feed of its own (issue 32; the feed itself is the podcast's, ./podcast.server.ts), which its page links.
 */
import { sql } from "drizzle-orm";
import { podcasts, programs } from "#server/db/schema.server.ts";
import { isPublished } from "../published.server.ts";
import { outerColumn } from "../published-items.server.ts";
import type { TypeHooks } from "./hooks.server.ts";

const program: TypeHooks = {
  beforeSave: (values, now) => (values.air_date == null ? { ...values, air_date: now.toISOString().slice(0, 10) } : values),
  detailColumns: () => ({
    hasPodcastFeed: sql<boolean>`exists (select 1 from ${podcasts} where ${podcasts.programId} = ${outerColumn(programs.id)} and ${isPublished(podcasts)})`,
  }),
  // Whether it has a feed changes with its episodes.
  detailReads: ["podcast"],
};

export default program;
