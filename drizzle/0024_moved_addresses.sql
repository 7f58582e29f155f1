-- Issue 42: addresses that moved (decision 0144). A renamed or merged tag's old page and a published item's old
-- slug answer 301 to their new address, in the language asked for, instead of 404. Paths are language-neutral (the
-- Arabic address); every row leads to a live address (chains are collapsed when a new move is written).
CREATE TABLE IF NOT EXISTS "moved_addresses" (
	"old_path" text PRIMARY KEY NOT NULL,
	"new_path" text NOT NULL,
	"moved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "moved_addresses_new_idx" ON "moved_addresses" USING btree ("new_path");
--> statement-breakpoint
-- Keyset pages (decision 0144): a page from a cursor is an index range scan that stops after the page, ties broken
-- by id, at any depth (the archive by publish date, per type; the news listing by creation time, read backwards).
CREATE INDEX IF NOT EXISTS "articles_status_publish_id_idx" ON "articles" USING btree ("status","publish_date","id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "news_status_publish_id_idx" ON "news" USING btree ("status","publish_date","id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "news_status_created_id_idx" ON "news" USING btree ("status","created_at","id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "programs_status_publish_id_idx" ON "programs" USING btree ("status","publish_date","id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "podcasts_status_publish_id_idx" ON "podcasts" USING btree ("status","publish_date","id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "coverages_status_publish_id_idx" ON "coverages" USING btree ("status","publish_date","id");
