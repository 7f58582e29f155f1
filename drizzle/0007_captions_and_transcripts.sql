ALTER TABLE "coverages" ADD COLUMN "captions_url" text;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "captions_url" text;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "transcript" text;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "captions_url" text;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "transcript" text;