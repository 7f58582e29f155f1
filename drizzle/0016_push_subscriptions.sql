-- Issue 32: breaking-news alerts by Web Push (decision 0127). Every content type gets an "urgent" flag (publishing
-- an urgent item, or one in the breaking category, alerts the subscribers); a reader's browser subscription is
-- kept with its language; an alert is one row per item (sent once), whose cursor and counts make a send
-- resumable after a crash and tell the editor how many subscribers got it.
ALTER TABLE "articles" ADD COLUMN "urgent" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "urgent" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "coverages" ADD COLUMN "urgent" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "urgent" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "urgent" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "urgent" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "push_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"language" text DEFAULT 'ar' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "push_subscriptions_endpoint_unique" ON "push_subscriptions" USING btree ("endpoint");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "push_alerts" (
	"content_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"job_id" integer,
	"cursor" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"removed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "push_alerts_pkey" PRIMARY KEY("content_type","item_id")
);
