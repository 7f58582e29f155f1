CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"title_fr" text,
	"content" text NOT NULL,
	"content_fr" text,
	"excerpt" text,
	"excerpt_fr" text,
	"category_id" integer,
	"author_id" text,
	"author_name" text,
	"author_name_fr" text,
	"author_bio" text,
	"author_image_url" text,
	"image_url" text,
	"is_featured" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"region" text,
	"is_trending" boolean DEFAULT false NOT NULL,
	"content_type" text DEFAULT 'article' NOT NULL,
	"video_url" text,
	"read_time_minutes" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"page_slug" text NOT NULL,
	"publish_date" timestamp with time zone DEFAULT now() NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_fr" text,
	"slug" text NOT NULL,
	"type" text DEFAULT 'general' NOT NULL,
	"parent_id" integer,
	"description" text,
	"description_fr" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"kind" text DEFAULT 'message' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coverages" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"title_fr" text,
	"excerpt" text,
	"content" text NOT NULL,
	"coverage_type" text DEFAULT 'report' NOT NULL,
	"event_location" text,
	"event_date" date,
	"reporter_name" text,
	"author_id" text,
	"author_name" text,
	"image_url" text,
	"video_url" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"page_slug" text NOT NULL,
	"publish_date" timestamp with time zone DEFAULT now() NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"title_fr" text,
	"description" text,
	"media_type" text NOT NULL,
	"file_url" text,
	"thumbnail_url" text,
	"image_url" text,
	"author_name" text,
	"is_featured" boolean DEFAULT false NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"duration_seconds" integer,
	"category_id" integer,
	"region" text,
	"is_trending" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"page_slug" text NOT NULL,
	"publish_date" timestamp with time zone DEFAULT now() NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "news" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"title_fr" text,
	"content" text NOT NULL,
	"content_fr" text,
	"excerpt" text,
	"excerpt_fr" text,
	"category_id" integer,
	"priority" text DEFAULT 'medium' NOT NULL,
	"location" text,
	"author_id" text,
	"author_name" text,
	"image_url" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"page_slug" text NOT NULL,
	"publish_date" timestamp with time zone DEFAULT now() NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text,
	"language" text DEFAULT 'ar' NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "podcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"title_fr" text,
	"description" text NOT NULL,
	"content" text,
	"episode_number" integer,
	"season" text DEFAULT '1' NOT NULL,
	"duration" text,
	"host_name" text,
	"guest_name" text,
	"audio_url" text,
	"image_url" text,
	"video_url" text,
	"author_id" text,
	"author_name" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"page_slug" text NOT NULL,
	"publish_date" timestamp with time zone DEFAULT now() NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"role" text DEFAULT 'reader' NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"full_name" text,
	"username" text,
	"avatar_url" text,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"title_fr" text,
	"description" text NOT NULL,
	"content" text,
	"program_type" text DEFAULT 'cultural' NOT NULL,
	"episode_number" integer,
	"season" text DEFAULT '1' NOT NULL,
	"host_name" text,
	"guest_name" text,
	"duration" text,
	"air_date" date DEFAULT CURRENT_DATE,
	"video_url" text,
	"image_url" text,
	"author_id" text,
	"author_name" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"page_slug" text NOT NULL,
	"publish_date" timestamp with time zone DEFAULT now() NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" integer NOT NULL,
	CONSTRAINT "rate_limit_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"guid" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"status" integer DEFAULT 0 NOT NULL,
	"length_seconds" integer DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"thumbnail_file_name" text,
	"collection" text,
	"is_demo" boolean DEFAULT false NOT NULL,
	"date_uploaded" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "news" ADD CONSTRAINT "news_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_id_user_id_fk" FOREIGN KEY ("id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_user_idx" ON "account" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "articles_page_slug_unique" ON "articles" USING btree ("page_slug");--> statement-breakpoint
CREATE INDEX "articles_status_publish_idx" ON "articles" USING btree ("status","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "articles_featured_idx" ON "articles" USING btree ("status","is_featured","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "articles_category_idx" ON "articles" USING btree ("category_id","status","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "articles_region_idx" ON "articles" USING btree ("region","status","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "articles_views_idx" ON "articles" USING btree ("status","view_count" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "categories_slug_unique" ON "categories" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "categories_type_idx" ON "categories" USING btree ("type","sort_order");--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "contacts_status_created_idx" ON "contacts" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "contacts_created_idx" ON "contacts" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "coverages_page_slug_unique" ON "coverages" USING btree ("page_slug");--> statement-breakpoint
CREATE INDEX "coverages_status_publish_idx" ON "coverages" USING btree ("status","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "coverages_created_idx" ON "coverages" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "media_page_slug_unique" ON "media" USING btree ("page_slug");--> statement-breakpoint
CREATE INDEX "media_status_publish_idx" ON "media" USING btree ("status","is_featured","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "media_type_idx" ON "media" USING btree ("media_type","status","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "media_category_idx" ON "media" USING btree ("category_id","media_type","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "news_page_slug_unique" ON "news" USING btree ("page_slug");--> statement-breakpoint
CREATE INDEX "news_status_created_idx" ON "news" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "news_status_publish_idx" ON "news" USING btree ("status","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "news_category_idx" ON "news" USING btree ("category_id","status","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_email_unique" ON "newsletter_subscribers" USING btree ("email");--> statement-breakpoint
CREATE INDEX "newsletter_token_idx" ON "newsletter_subscribers" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "podcasts_page_slug_unique" ON "podcasts" USING btree ("page_slug");--> statement-breakpoint
CREATE INDEX "podcasts_status_publish_idx" ON "podcasts" USING btree ("status","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "podcasts_created_idx" ON "podcasts" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_username_unique" ON "profiles" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "programs_page_slug_unique" ON "programs" USING btree ("page_slug");--> statement-breakpoint
CREATE INDEX "programs_status_publish_idx" ON "programs" USING btree ("status","publish_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "programs_created_idx" ON "programs" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "session_user_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "verification_identifier_idx" ON "verification" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "videos_date_idx" ON "videos" USING btree ("date_uploaded" DESC NULLS LAST);