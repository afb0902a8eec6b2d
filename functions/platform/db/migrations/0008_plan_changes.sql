ALTER TABLE "subscriptions" ADD COLUMN "scheduled_tier_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "test_billing_customers" ADD COLUMN "credit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "test_billing_subscriptions" ADD COLUMN "pending_lookup_key" text;--> statement-breakpoint
ALTER TABLE "test_billing_subscriptions" ADD COLUMN "latest_invoice" jsonb;