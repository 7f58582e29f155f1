-- Issue 32: the newsletter sends (decision 0126). A subscriber chooses a frequency (daily, weekly, none) and
-- holds the hash of a token for the unsubscribe and preferences links; a send is a digest or one item in one
-- language, and each of its recipients a delivery row whose state (pending, sending, sent, failed, skipped)
-- is what makes a send resumable after a crash.
ALTER TABLE "newsletter_subscribers" ADD COLUMN "frequency" text DEFAULT 'daily' NOT NULL;
--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "manage_token_hash" text;
--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD COLUMN "unsubscribed_at" timestamp with time zone;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "newsletter_manage_token_unique" ON "newsletter_subscribers" USING btree ("manage_token_hash");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "newsletter_audience_idx" ON "newsletter_subscribers" USING btree ("status","language","frequency");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "newsletter_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"period" text,
	"language" text NOT NULL,
	"subject" text NOT NULL,
	"intro" text,
	"items" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_by_name" text,
	"last_error" text,
	"counts" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "newsletter_sends_created_idx" ON "newsletter_sends" USING btree ("created_at" DESC NULLS LAST);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "newsletter_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"send_id" integer NOT NULL REFERENCES "newsletter_sends"("id") ON DELETE CASCADE,
	"subscriber_id" integer NOT NULL REFERENCES "newsletter_subscribers"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"error" text,
	"unsubscribed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "newsletter_deliveries_unique" ON "newsletter_deliveries" USING btree ("send_id","subscriber_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "newsletter_deliveries_claim_idx" ON "newsletter_deliveries" USING btree ("send_id","state","id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "newsletter_deliveries_subscriber_idx" ON "newsletter_deliveries" USING btree ("subscriber_id");
