CREATE TABLE "invoice_payments" (
	"invoice_id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"user_id" uuid,
	"amount" integer NOT NULL,
	"reason" text,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "invoice_payments_amount_check" CHECK ("invoice_payments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "revenue_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"user_id" uuid,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"mrr_before" integer NOT NULL,
	"mrr_after" integer NOT NULL,
	"status_before" text,
	"status_after" text NOT NULL,
	CONSTRAINT "revenue_movements_kind_check" CHECK ("revenue_movements"."kind" in ('new', 'reactivation', 'expansion', 'contraction', 'churned', 'trial')),
	CONSTRAINT "revenue_movements_amounts_check" CHECK ("revenue_movements"."mrr_before" >= 0 and "revenue_movements"."mrr_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revenue_movements" ADD CONSTRAINT "revenue_movements_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_payments_paid_idx" ON "invoice_payments" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "invoice_payments_subscription_idx" ON "invoice_payments" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "revenue_movements_at_idx" ON "revenue_movements" USING btree ("at");--> statement-breakpoint
CREATE INDEX "revenue_movements_subscription_idx" ON "revenue_movements" USING btree ("subscription_id","id");--> statement-breakpoint
CREATE INDEX "revenue_movements_user_idx" ON "revenue_movements" USING btree ("user_id");--> statement-breakpoint
-- Existing installs start with the right monthly revenue: one `new` movement per subscription that
-- pays now (active or past due, no cancellation in effect), dated when our copy of it was made, at
-- its price a month (a year's a twelfth, rounded half up) with a running offer's discount taken off
-- (forever, or repeating and not yet over; a once discount was spent on the first invoice).
INSERT INTO "revenue_movements" ("subscription_id", "user_id", "at", "kind", "mrr_before", "mrr_after", "status_before", "status_after")
SELECT s."id", s."user_id", s."created_at", 'new', 0, m."cents", NULL, s."status"
FROM "subscriptions" s
LEFT JOIN LATERAL (
  SELECT o."percent_off", o."amount_off" FROM "offer_redemptions" r JOIN "offers" o ON o."id" = r."offer_id"
  WHERE r."subscription_id" = s."id" AND r."status" = 'redeemed'
    AND (o."duration" = 'forever'
      OR (o."duration" = 'repeating' AND r."redeemed_at" + make_interval(months => coalesce(o."duration_in_months", 1)) > now()))
  ORDER BY r."redeemed_at" DESC LIMIT 1
) d ON true
CROSS JOIN LATERAL (
  SELECT CASE WHEN d."percent_off" IS NOT NULL THEN greatest(0, round(s."amount" * (100 - d."percent_off") / 100.0))
    WHEN d."amount_off" IS NOT NULL THEN greatest(0, s."amount" - d."amount_off")
    ELSE s."amount" END AS "price"
) p
CROSS JOIN LATERAL (SELECT (CASE WHEN s."interval" = 'year' THEN round(p."price" / 12.0) ELSE p."price" END)::int AS "cents") m
WHERE s."status" IN ('active', 'past_due') AND (s."cancel_at" IS NULL OR s."cancel_at" > now()) AND m."cents" > 0;--> statement-breakpoint
-- A subscription in its free trial is marked, so its conversion counts when it comes.
INSERT INTO "revenue_movements" ("subscription_id", "user_id", "at", "kind", "mrr_before", "mrr_after", "status_before", "status_after")
SELECT s."id", s."user_id", s."created_at", 'trial', 0, 0, NULL, s."status" FROM "subscriptions" s WHERE s."status" = 'trialing';
