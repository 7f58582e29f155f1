-- Issue 32: a podcast episode may belong to a program (show); each program's episodes make its own podcast feed
-- (/programs/:slug/feed.xml). Deleting a program leaves its episodes, in the site's feed only.
ALTER TABLE "podcasts" ADD COLUMN "program_id" integer REFERENCES "programs"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "podcasts_program_idx" ON "podcasts" USING btree ("program_id","publish_date" DESC NULLS LAST);
