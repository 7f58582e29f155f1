/**
 * What coverage items (domain/content-types/coverage.ts) do that other types do not: they can be live (issue 44,
 * docs/decisions/0146-live-coverage.md). Their detail page reads the live period's start and end with the row
 * (the «مباشر» badge, LiveBlogPosting's coverageStartTime / coverageEndTime), and its live entries after it
 * (server/content/live/pages.server.ts); the sitemap's last modification follows the entries.
 */
import { sql } from "drizzle-orm";
import { coverages } from "#server/db/schema.server.ts";
import { liveCoverageHooks } from "../live/pages.server.ts";
import { outerColumn } from "../published-items.server.ts";
import type { TypeHooks } from "./hooks.server.ts";

const coverage: TypeHooks = {
  detailColumns: () => ({
    liveStartedAt: sql<Date | null>`${outerColumn(coverages.liveStartedAt)}`.mapWith(coverages.liveStartedAt),
    liveEndedAt: sql<Date | null>`${outerColumn(coverages.liveEndedAt)}`.mapWith(coverages.liveEndedAt),
  }),
  // Called through, not spread: pages.server.ts reaches this module back (through detail.server.ts and the hooks'
  // index), so its hooks may not be defined yet while this module is first evaluated.
  detailExtras: (db, page, options) => liveCoverageHooks.detailExtras(db, page, options),
  lastModified: () => liveCoverageHooks.lastModified(),
};

export default coverage;
