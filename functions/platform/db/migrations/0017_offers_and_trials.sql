CREATE TABLE "test_billing_coupons" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"percent_off" integer,
	"amount_off" integer,
	"duration" text NOT NULL,
	"duration_in_months" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offer_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"offer_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"session_id" text,
	"subscription_id" text,
	"revenue" integer DEFAULT 0 NOT NULL,
	"last_invoice_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"redeemed_at" timestamp with time zone,
	CONSTRAINT "offer_redemptions_status_check" CHECK ("offer_redemptions"."status" in ('pending', 'redeemed', 'released'))
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent_off" integer,
	"amount_off" integer,
	"duration" text NOT NULL,
	"duration_in_months" integer,
	"price_ids" text[],
	"max_redemptions" integer,
	"redemptions" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"coupon_id" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "offers_kind_check" CHECK ("offers"."kind" in ('signup', 'retention')),
	CONSTRAINT "offers_duration_check" CHECK ("offers"."duration" in ('once', 'repeating', 'forever')),
	CONSTRAINT "offers_discount_check" CHECK (("offers"."percent_off" is null) <> ("offers"."amount_off" is null)),
	CONSTRAINT "offers_percent_check" CHECK ("offers"."percent_off" is null or ("offers"."percent_off" between 1 and 99)),
	CONSTRAINT "offers_amount_check" CHECK ("offers"."amount_off" is null or "offers"."amount_off" > 0),
	CONSTRAINT "offers_redemptions_check" CHECK ("offers"."max_redemptions" is null or "offers"."redemptions" <= "offers"."max_redemptions")
);
--> statement-breakpoint
CREATE TABLE "plan_trials" (
	"price_id" text PRIMARY KEY NOT NULL,
	"days" integer NOT NULL,
	"updated_by" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_trials_days_check" CHECK ("plan_trials"."days" between 0 and 90)
);
--> statement-breakpoint
ALTER TABLE "test_billing_subscriptions" ADD COLUMN "discount" jsonb;--> statement-breakpoint
ALTER TABLE "test_billing_subscriptions" ADD COLUMN "trial_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "trial_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "trial_warned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offer_redemptions" ADD CONSTRAINT "offer_redemptions_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_redemptions" ADD CONSTRAINT "offer_redemptions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offer_redemptions_member_key" ON "offer_redemptions" USING btree ("offer_id","user_id") WHERE "offer_redemptions"."status" <> 'released';--> statement-breakpoint
CREATE INDEX "offer_redemptions_subscription_idx" ON "offer_redemptions" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_code_key" ON "offers" USING btree ("code");