-- Issue 40: who is editing, and notes on an item (decision 0139). One soft lock per item: the row is the truth for
-- every process; taking or renewing it is one INSERT … ON CONFLICT DO UPDATE … WHERE (expired or same holder).
CREATE TABLE IF NOT EXISTS "item_locks" (
	"content_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"holder_id" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "item_locks_pkey" PRIMARY KEY("content_type","item_id")
);
--> statement-breakpoint
ALTER TABLE "item_locks" ADD CONSTRAINT "item_locks_holder_id_user_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Internal notes on an item, never public; the author's name is kept as written, for an account removed since.
CREATE TABLE IF NOT EXISTS "item_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"author_id" text,
	"author_name" text,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "item_notes" ADD CONSTRAINT "item_notes_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "item_notes_item_idx" ON "item_notes" USING btree ("content_type","item_id","created_at");
