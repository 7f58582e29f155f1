-- Decision 0153: the planner reads a column's statistics on each new connection's first plan, and the search reads
-- its lexeme frequencies (server/search/search-walks.server.ts). At a statistics target of 10,000 a vector column
-- keeps up to 100,000 most common elements (about 1 MB read again and again); at 1,000 it keeps the 10,000
-- commonest, which decision 0071 meant to keep and which hold every word the search's walks depend on.
ALTER TABLE "search_items" ALTER COLUMN "title_vec" SET STATISTICS 1000;
--> statement-breakpoint
ALTER TABLE "search_items" ALTER COLUMN "all_vec" SET STATISTICS 1000;
--> statement-breakpoint
ANALYZE "search_items";
