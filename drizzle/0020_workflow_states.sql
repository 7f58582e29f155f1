-- Issue 40: workflow states and review (decision 0138). The items' status column is text without a CHECK: the new
-- states (review, changes_requested, approved) need no change to it. Who submitted an item and the note it was
-- sent back with are kept beside it (account ids as the items' author_id keeps them: no foreign key, a removed account
-- leaves its name to the record); an account's in-app notices (submitted, sent back, published) in their own table,
-- removed with the account.
CREATE TABLE IF NOT EXISTS "item_workflow" (
	"content_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"submitted_by" text,
	"submitted_at" timestamp with time zone,
	"review_note" text,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "item_workflow_pkey" PRIMARY KEY("content_type","item_id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "staff_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"title" text NOT NULL,
	"actor_name" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "staff_notices" ADD CONSTRAINT "staff_notices_account_id_user_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "staff_notices_account_idx" ON "staff_notices" USING btree ("account_id","created_at" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "staff_notices_item_idx" ON "staff_notices" USING btree ("content_type","item_id");
