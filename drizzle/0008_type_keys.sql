-- One spelling per type. The search tables name an item's type by its key in domain/content-types/
-- ('article', 'coverage', …), not by its table ('articles', 'coverages', …), and every counter of views
-- is view_count (media's was views).
-- The per-table triggers of 0005 keep their names; from now on the application attaches them, and any a
-- new type needs, after the migrations, from the definitions (server/search/search-triggers.server.ts):
-- this migration renames what they queued so far.
ALTER TABLE "media" RENAME COLUMN "views" TO "view_count";
--> statement-breakpoint
UPDATE search_items SET type = CASE type WHEN 'articles' THEN 'article' WHEN 'programs' THEN 'program' WHEN 'podcasts' THEN 'podcast'
  WHEN 'coverages' THEN 'coverage' ELSE type END
  WHERE type IN ('articles', 'programs', 'podcasts', 'coverages');
--> statement-breakpoint
UPDATE search_queue SET type = CASE type WHEN 'articles' THEN 'article' WHEN 'programs' THEN 'program' WHEN 'podcasts' THEN 'podcast'
  WHEN 'coverages' THEN 'coverage' ELSE type END
  WHERE type IN ('articles', 'programs', 'podcasts', 'coverages');
