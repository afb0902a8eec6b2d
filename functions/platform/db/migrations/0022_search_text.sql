CREATE TABLE "content_search" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text NOT NULL,
	"item_type" text NOT NULL,
	"item_id" text NOT NULL,
	"content_id" uuid,
	"part" text NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"access_level" text NOT NULL,
	"sold" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"body" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'B')) STORED,
	CONSTRAINT "content_search_source_check" CHECK ("content_search"."source" in ('git', 'db')),
	CONSTRAINT "content_search_type_check" CHECK ("content_search"."item_type" in ('blog', 'course')),
	CONSTRAINT "content_search_access_check" CHECK ("content_search"."access_level" in ('free', 'subscriber', 'premium'))
);
--> statement-breakpoint
-- The vector stays in the row (ranking and a phrase's check read it: a fetch from the TOAST table per match cost 7-15 us on
-- PGlite), the text goes out of it uncompressed (only the returned rows' snippets read it).
ALTER TABLE "content_search" ALTER COLUMN "search" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "content_search" ALTER COLUMN "body" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "newsletter_issues" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(subject, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'B')) STORED;--> statement-breakpoint
ALTER TABLE "content_search" ADD CONSTRAINT "content_search_content_id_content_items_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_search_part_key" ON "content_search" USING btree ("item_id","part","source","item_type");--> statement-breakpoint
CREATE INDEX "content_search_content_idx" ON "content_search" USING btree ("content_id");--> statement-breakpoint
CREATE INDEX "content_search_search_idx" ON "content_search" USING gin ("search");--> statement-breakpoint
CREATE INDEX "newsletter_issues_search_idx" ON "newsletter_issues" USING gin ("search");