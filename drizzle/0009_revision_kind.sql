-- What a revision is: 'save' (the item as someone saved it) or 'autosave' (a draft's form as its editor was
-- typing it, kept every few seconds; the item itself unchanged). At most one autosave per item and author
-- (the partial unique index: a newer one replaces it); server/content/newsroom.server.ts prunes old ones.
ALTER TABLE "content_revisions" ADD COLUMN "kind" text DEFAULT 'save' NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "content_revisions_autosave_idx" ON "content_revisions" USING btree ("content_type","item_id","author_id") WHERE "content_revisions"."kind" = 'autosave';
