CREATE TABLE "content_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"access_level" text DEFAULT 'free' NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_items_type_check" CHECK ("content_items"."type" in ('blog', 'tool', 'course', 'market')),
	CONSTRAINT "content_items_access_check" CHECK ("content_items"."access_level" in ('free', 'subscriber', 'premium'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "content_items_type_slug_key" ON "content_items" USING btree ("type","slug");--> statement-breakpoint
CREATE INDEX "content_items_type_created_idx" ON "content_items" USING btree ("type","created_at");