-- Search and sharing fields per item (issue 29): every content type's table gets a meta description, a share
-- title and image, a canonical URL and a noindex flag. All optional: existing rows keep working (nulls, and
-- noindex false, the default, so every published item stays indexed and in the sitemap).
ALTER TABLE "articles" ADD COLUMN "meta_description" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "share_title" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "share_image_url" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "canonical_url" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "noindex" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "meta_description" text;--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "share_title" text;--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "share_image_url" text;--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "canonical_url" text;--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "noindex" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "coverages" ADD COLUMN "meta_description" text;--> statement-breakpoint
ALTER TABLE "coverages" ADD COLUMN "share_title" text;--> statement-breakpoint
ALTER TABLE "coverages" ADD COLUMN "share_image_url" text;--> statement-breakpoint
ALTER TABLE "coverages" ADD COLUMN "canonical_url" text;--> statement-breakpoint
ALTER TABLE "coverages" ADD COLUMN "noindex" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "meta_description" text;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "share_title" text;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "share_image_url" text;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "canonical_url" text;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "noindex" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "meta_description" text;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "share_title" text;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "share_image_url" text;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "canonical_url" text;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "noindex" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "meta_description" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "share_title" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "share_image_url" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "canonical_url" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "noindex" boolean DEFAULT false NOT NULL;
