CREATE TABLE "upload_registrations" (
	"key" text PRIMARY KEY NOT NULL,
	"area" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "upload_registrations_area_check" CHECK ("upload_registrations"."area" in ('public', 'protected'))
);
--> statement-breakpoint
CREATE INDEX "upload_registrations_created_idx" ON "upload_registrations" USING btree ("created_at");