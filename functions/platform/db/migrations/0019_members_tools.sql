CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_labels" (
	"user_id" uuid NOT NULL,
	"label_id" uuid NOT NULL,
	CONSTRAINT "member_labels_user_id_label_id_pk" PRIMARY KEY("user_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "segments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"filter" jsonb NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_seen" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "signup_referrer" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "signup_utm_source" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "signup_utm_medium" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "signup_utm_campaign" text;--> statement-breakpoint
ALTER TABLE "member_labels" ADD CONSTRAINT "member_labels_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_labels" ADD CONSTRAINT "member_labels_label_id_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_seen" ADD CONSTRAINT "member_seen_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE UNIQUE INDEX "labels_name_key" ON "labels" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "member_labels_label_idx" ON "member_labels" USING btree ("label_id");--> statement-breakpoint
CREATE UNIQUE INDEX "segments_name_key" ON "segments" USING btree (lower("name"));