/**
 * What one content type does that the others do not, beside its definition: the server half of a type, as a
 * Payload collection keeps its `hooks` (`afterChange: [revalidatePost]`). Generic code (the save, the detail
 * page, the admin list) asks `hooksOf(type)` in ./index.server.ts and calls what is there; it never names a
 * type. Every hook is optional: a type with no behaviour of its own has no hooks file.
 */
import type { SQL } from "drizzle-orm";
import type { ContentType } from "#domain/content-types/index.ts";
import type { DetailPage } from "#domain/detail-view.ts";
import type { Database } from "#server/db/client.server.ts";

/** What a detail page's address says besides the item (`?before=` of a live coverage's older entries). */
export type DetailOptions = { searchParams?: URLSearchParams };

/** A feed a type serves besides its definition's `feed`: its title and its path. */
export type TypeFeed = { title: string; path: string };

export type TypeHooks = {
  /** The save's validated values, completed before they are written (a program's blank air date: the day of the save). */
  beforeSave?: (values: Record<string, unknown>, now: Date) => Record<string, unknown>;
  /** Columns the detail page reads besides the definition's, as SQL over the item's row (a program: whether it has a podcast feed). */
  detailColumns?: () => Record<string, SQL>;
  /**
   * What the detail page shows besides the item's row, read after it and merged into the page (a coverage's live
   * entries, issue 44). Read through the read cache under tags of its own, so the item's cached read stays as it is.
   */
  detailExtras?: (db: Database, page: Omit<DetailPage, "related">, options: DetailOptions) => Promise<Partial<DetailPage>>;
  /** The item's last modification for the sitemap, as SQL over its row, when more than its updated_at moves it (a live coverage's entries). */
  lastModified?: () => SQL<Date>;
  /** Other types whose items the detail page reads: a save of one of them invalidates the type's cached pages. */
  detailReads?: readonly ContentType[];
  /** Its feeds besides its definition's `feed`, which its admin list announces (a podcast: one per program). */
  feeds?: (db: Database) => Promise<TypeFeed[]>;
};
