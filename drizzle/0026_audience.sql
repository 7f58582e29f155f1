-- Issue 45: audience figures without cookies or addresses (decision 0147). Raw beacons for a few weeks, the dedupe of
-- views for two days, views rolled up by hour (a few months) and by day (for ever), searches by day.
CREATE TABLE IF NOT EXISTS "audience_views" (
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"visitor" text NOT NULL,
	"page" text NOT NULL,
	"content_type" text,
	"content_id" integer,
	"lang" text NOT NULL,
	"source" text NOT NULL,
	"campaign" text,
	"device" text NOT NULL,
	"counted" boolean NOT NULL,
	"new_visitor" boolean NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audience_views_at_idx" ON "audience_views" USING btree ("at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audience_views_item_idx" ON "audience_views" USING btree ("content_type","content_id","at");
--> statement-breakpoint
-- page '' is the visitor itself (their first beacon of the day); any other page is a counted view of it.
CREATE TABLE IF NOT EXISTS "audience_seen" (
	"day" date NOT NULL,
	"visitor" text NOT NULL,
	"page" text NOT NULL,
	CONSTRAINT "audience_seen_day_visitor_page_pk" PRIMARY KEY("day","visitor","page")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "audience_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"grain" smallint DEFAULT 0 NOT NULL,
	"page" text NOT NULL,
	"content_type" text DEFAULT '' NOT NULL,
	"content_id" integer DEFAULT 0 NOT NULL,
	"lang" text NOT NULL,
	"source" text NOT NULL,
	"device" text NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "audience_hourly_grain_hour_page_lang_source_device_campaign_pk" PRIMARY KEY("grain","hour","page","lang","source","device","campaign")
);
--> statement-breakpoint
-- One item's figures (its edit page, the admin API) read its own rows rather than every row of the period.
CREATE INDEX IF NOT EXISTS "audience_hourly_item_idx" ON "audience_hourly" USING btree ("content_type","content_id","hour");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "audience_daily" (
	"day" date NOT NULL,
	"grain" smallint DEFAULT 0 NOT NULL,
	"page" text NOT NULL,
	"content_type" text DEFAULT '' NOT NULL,
	"content_id" integer DEFAULT 0 NOT NULL,
	"lang" text NOT NULL,
	"source" text NOT NULL,
	"device" text NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "audience_daily_grain_day_page_lang_source_device_campaign_pk" PRIMARY KEY("grain","day","page","lang","source","device","campaign")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audience_daily_item_idx" ON "audience_daily" USING btree ("content_type","content_id","day");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "audience_searches" (
	"day" date NOT NULL,
	"query" text NOT NULL,
	"lang" text NOT NULL,
	"searches" integer NOT NULL,
	"empty" integer NOT NULL,
	CONSTRAINT "audience_searches_day_query_lang_pk" PRIMARY KEY("day","query","lang")
);
--> statement-breakpoint
-- The figures are the newsroom's: whoever may publish may read them (editors by default; admins pass every check).
UPDATE "profiles" SET "permissions" = (
  SELECT array_agg(DISTINCT p ORDER BY p) FROM unnest("permissions" || ARRAY['analytics.view']::text[]) AS p
), "updated_at" = now()
WHERE 'content.publish' = ANY ("permissions") AND NOT ('analytics.view' = ANY ("permissions"));
