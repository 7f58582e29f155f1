-- Decision 0153: the planner reads a column's statistics on each new connection's first plan, and the search reads
-- its lexeme frequencies (server/search/search-walks.server.ts): at 10,000 most common elements per vector column
-- that was about 1 MB read again and again. The search walks for words in a few per cent of the texts, which the
-- commonest 1,000 hold.
ALTER TABLE "search_items" ALTER COLUMN "title_vec" SET STATISTICS 1000;
--> statement-breakpoint
ALTER TABLE "search_items" ALTER COLUMN "all_vec" SET STATISTICS 1000;
--> statement-breakpoint
ANALYZE "search_items";
