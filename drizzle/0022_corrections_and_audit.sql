-- Issue 40: corrections and the audit log (decision 0140). A correction is a dated note an editor adds to a
-- published item (its text, and in French when there is one), shown under the story, in its JSON-LD and RSS item.
-- The audit log is one row per publish, unpublish, schedule, delete, restore, bulk action, permission change,
-- sign-in lock-out and newsletter send: who, what, which items (all the ids of a bulk action in one row), when and
-- from which request; kept AUDIT_RETENTION_DAYS days.
CREATE TABLE IF NOT EXISTS "item_corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"text" text NOT NULL,
	"text_fr" text,
	"author_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "item_corrections_item_idx" ON "item_corrections" USING btree ("content_type","item_id","created_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"content_type" text,
	"item_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"request_id" text
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_at_idx" ON "audit_log" USING btree ("at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_item_ids_idx" ON "audit_log" USING gin ("item_ids");
