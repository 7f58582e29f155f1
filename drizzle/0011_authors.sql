-- Author profiles (issue 29, decision 0121): a byline is a profile with a name in three languages, a photo, a
-- biography and links, optionally linked to the account whose default byline it is. An item names one or more
-- of them, in byline order (item_authors; content_type is the registry's type key, as in content_revisions).
CREATE TABLE "authors" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"name_fr" text,
	"name_en" text,
	"photo_url" text,
	"bio" text,
	"bio_fr" text,
	"bio_en" text,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "authors_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX "authors_slug_unique" ON "authors" USING btree ("slug");
--> statement-breakpoint
CREATE UNIQUE INDEX "authors_user_unique" ON "authors" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "item_authors" (
	"content_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "item_authors_content_type_item_id_author_id_pk" PRIMARY KEY("content_type","item_id","author_id"),
	CONSTRAINT "item_authors_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "item_authors_author_idx" ON "item_authors" USING btree ("author_id","content_type","item_id");
--> statement-breakpoint
-- Today's bylines become profiles: one per distinct author_name, with an article's French name, biography and
-- photo where one has them; the slug is the name's letters (Arabic kept, as page slugs keep them), numbered
-- when two names make the same one.
WITH bylines AS (
	SELECT btrim("author_name") AS name, "author_name_fr" AS name_fr, "author_bio" AS bio, "author_image_url" AS photo FROM "articles"
	UNION ALL SELECT btrim("author_name"), NULL, NULL, NULL FROM "news"
	UNION ALL SELECT btrim("author_name"), NULL, NULL, NULL FROM "coverages"
	UNION ALL SELECT btrim("author_name"), NULL, NULL, NULL FROM "podcasts"
	UNION ALL SELECT btrim("author_name"), NULL, NULL, NULL FROM "programs"
	UNION ALL SELECT btrim("author_name"), NULL, NULL, NULL FROM "media"
), named AS (
	SELECT name,
		(array_agg(name_fr) FILTER (WHERE coalesce(btrim(name_fr), '') <> ''))[1] AS name_fr,
		(array_agg(bio) FILTER (WHERE coalesce(btrim(bio), '') <> ''))[1] AS bio,
		(array_agg(photo) FILTER (WHERE coalesce(btrim(photo), '') <> ''))[1] AS photo
	FROM bylines WHERE coalesce(name, '') <> '' GROUP BY name
), slugged AS (
	SELECT *, coalesce(nullif(btrim(regexp_replace(regexp_replace(lower(name), '[\u064B-\u065F\u0670\u0640]', '', 'g'), '[^a-z0-9\u00C0-\u024F\u0621-\u064A\u0660-\u0669\u06A0-\u06FF]+', '-', 'g'), '-'), ''), 'author') AS base
	FROM named
), numbered AS (
	SELECT *, row_number() OVER (PARTITION BY base ORDER BY name) AS n FROM slugged
)
INSERT INTO "authors" ("slug", "name", "name_fr", "bio", "photo_url")
SELECT CASE WHEN n = 1 THEN base ELSE base || '-' || n END, name, name_fr, bio, photo FROM numbered;
--> statement-breakpoint
-- A profile whose name is an account's byline (the part of its e-mail before the @) is that account's.
UPDATE "authors" a SET "user_id" = u."id"
FROM "user" u
WHERE split_part(u."email", '@', 1) = a."name"
	AND NOT EXISTS (SELECT 1 FROM "authors" b WHERE b."user_id" = u."id");
--> statement-breakpoint
INSERT INTO "item_authors" ("content_type", "item_id", "author_id", "position")
SELECT 'article', t."id", a."id", 0 FROM "articles" t JOIN "authors" a ON a."name" = btrim(t."author_name")
UNION ALL SELECT 'news', t."id", a."id", 0 FROM "news" t JOIN "authors" a ON a."name" = btrim(t."author_name")
UNION ALL SELECT 'coverage', t."id", a."id", 0 FROM "coverages" t JOIN "authors" a ON a."name" = btrim(t."author_name")
UNION ALL SELECT 'podcast', t."id", a."id", 0 FROM "podcasts" t JOIN "authors" a ON a."name" = btrim(t."author_name")
UNION ALL SELECT 'program', t."id", a."id", 0 FROM "programs" t JOIN "authors" a ON a."name" = btrim(t."author_name")
UNION ALL SELECT 'media', t."id", a."id", 0 FROM "media" t JOIN "authors" a ON a."name" = btrim(t."author_name");
