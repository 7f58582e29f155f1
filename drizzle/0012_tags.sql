-- Tags (issue 29, decision 0122): people, places and events an item is about. match_key is the name through the
-- search analysis' normalisation (domain/arabic.ts normalizeArabic, lower-cased), so «الإنتخابات» and
-- «الانتخابات» are one tag; the application fills it.
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"match_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tags_slug_unique" ON "tags" USING btree ("slug");
--> statement-breakpoint
CREATE UNIQUE INDEX "tags_match_key_unique" ON "tags" USING btree ("match_key");
--> statement-breakpoint
CREATE TABLE "item_tags" (
	"content_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "item_tags_content_type_item_id_tag_id_pk" PRIMARY KEY("content_type","item_id","tag_id"),
	CONSTRAINT "item_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
CREATE INDEX "item_tags_tag_idx" ON "item_tags" USING btree ("tag_id","content_type","item_id");
