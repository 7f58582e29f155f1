-- Issue 44: live coverage (decision 0146). A coverage is live between its start and its end; starting it again after
-- an end begins a new live period (start now, end cleared).
ALTER TABLE "coverages" ADD COLUMN IF NOT EXISTS "live_started_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "coverages" ADD COLUMN IF NOT EXISTS "live_ended_at" timestamp with time zone;
--> statement-breakpoint
-- One sequence for the entries' ids and versions: every create, edit and delete draws the next value as the entry's
-- version, so a reader's cursor (an id or a version) asks for every change after it in one index range.
CREATE SEQUENCE IF NOT EXISTS "coverage_entry_seq";
--> statement-breakpoint
-- A deleted entry stays as a tombstone (deleted_at set, its content blanked) so pollers learn of the deletion.
CREATE TABLE IF NOT EXISTS "coverage_entries" (
	"id" bigint PRIMARY KEY DEFAULT nextval('coverage_entry_seq') NOT NULL,
	"coverage_id" integer NOT NULL,
	"version" bigint NOT NULL,
	"body" text NOT NULL,
	"image_url" text,
	"image_alt" text,
	"video_id" text,
	"embed_url" text,
	"key_event" boolean DEFAULT false NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"client_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "coverage_entries" ADD CONSTRAINT "coverage_entries_coverage_id_coverages_id_fk" FOREIGN KEY ("coverage_id") REFERENCES "public"."coverages"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "coverage_entries" ADD CONSTRAINT "coverage_entries_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "coverage_entries_coverage_version_idx" ON "coverage_entries" USING btree ("coverage_id","version");
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "coverage_entries_client_key_unique" ON "coverage_entries" USING btree ("coverage_id","client_key");
--> statement-breakpoint
-- At most one pinned entry per coverage, kept by the database as well as by the transaction that pins.
CREATE UNIQUE INDEX IF NOT EXISTS "coverage_entries_one_pinned" ON "coverage_entries" USING btree ("coverage_id") WHERE "pinned" AND "deleted_at" IS NULL;
--> statement-breakpoint
-- The ticker and the badges ask which coverages are live now: few rows, found without scanning the table.
CREATE INDEX IF NOT EXISTS "coverages_live_idx" ON "coverages" USING btree ("live_started_at") WHERE "live_started_at" IS NOT NULL AND "live_ended_at" IS NULL;
