CREATE TABLE "content_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"data" jsonb NOT NULL,
	"author_id" text,
	"author_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slug_redirects" (
	"content_type" text NOT NULL,
	"old_slug" text NOT NULL,
	"item_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "slug_redirects_content_type_old_slug_pk" PRIMARY KEY("content_type","old_slug")
);
--> statement-breakpoint
CREATE INDEX "content_revisions_item_idx" ON "content_revisions" USING btree ("content_type","item_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "slug_redirects_item_idx" ON "slug_redirects" USING btree ("content_type","item_id");