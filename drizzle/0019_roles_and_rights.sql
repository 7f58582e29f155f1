-- Issue 40, decision 0137: content.publish, content.others and tags.manage split from content.write. Every account that
-- writes today keeps what it can do: whoever holds content.write gets the three new rights (admins pass every check).
UPDATE "profiles" SET "permissions" = (
  SELECT array_agg(DISTINCT p ORDER BY p) FROM unnest("permissions" || ARRAY['content.publish', 'content.others', 'tags.manage']::text[]) AS p
), "updated_at" = now()
WHERE 'content.write' = ANY ("permissions") AND NOT ("permissions" @> ARRAY['content.publish', 'content.others', 'tags.manage']::text[]);
--> statement-breakpoint
-- The media table was the one content table without the creating account: ownership reads it (items made before
-- this migration have none, and are edited by content.others alone, as other items with no creator).
ALTER TABLE "media" ADD COLUMN "author_id" text;
