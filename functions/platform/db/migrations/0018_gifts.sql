CREATE TABLE "gifts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"buyer_id" uuid,
	"buyer_name" text NOT NULL,
	"recipient_email" text NOT NULL,
	"recipient_name" text,
	"message" text,
	"access_level" text NOT NULL,
	"months" integer NOT NULL,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"session_id" text,
	"deliver_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"redeemed_by" uuid,
	"redeemed_at" timestamp with time zone,
	"waiting" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gifts_status_check" CHECK ("gifts"."status" in ('pending', 'paid', 'redeemed')),
	CONSTRAINT "gifts_level_check" CHECK ("gifts"."access_level" in ('subscriber', 'premium')),
	CONSTRAINT "gifts_months_check" CHECK ("gifts"."months" in (1, 3, 6, 12))
);
--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_buyer_id_profiles_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_redeemed_by_profiles_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_code_key" ON "gifts" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_session_key" ON "gifts" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "gifts_buyer_idx" ON "gifts" USING btree ("buyer_id");--> statement-breakpoint
CREATE INDEX "gifts_waiting_idx" ON "gifts" USING btree ("redeemed_by") WHERE "gifts"."waiting" = 1;