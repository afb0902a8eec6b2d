CREATE TABLE "access_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"access_level" text NOT NULL,
	"source" text NOT NULL,
	"source_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"created_by" uuid NOT NULL,
	"note" text,
	"ended_by" uuid,
	"detail" text,
	"warned_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "access_grants_level_check" CHECK ("access_grants"."access_level" in ('subscriber', 'premium')),
	CONSTRAINT "access_grants_source_check" CHECK ("access_grants"."source" in ('subscription', 'purchase', 'comp', 'gift', 'trial', 'offer')),
	CONSTRAINT "access_grants_span_check" CHECK ("access_grants"."ends_at" is null or "access_grants"."ends_at" >= "access_grants"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "access_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "access_grants" ADD CONSTRAINT "access_grants_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_grants_user_idx" ON "access_grants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "access_grants_unsettled_idx" ON "access_grants" USING btree ("ends_at") WHERE "access_grants"."settled_at" is null and "access_grants"."ends_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "access_grants_open_subscription_key" ON "access_grants" USING btree ("source_id") WHERE "access_grants"."source" in ('subscription', 'trial', 'offer') and "access_grants"."ends_at" is null;--> statement-breakpoint
-- Today's levels as grants with their real source. A subscription that grants now keeps its run as
-- a row (a trial's as `trial`), ending at a scheduled cancellation.
INSERT INTO "access_grants" ("user_id", "access_level", "source", "source_id", "starts_at", "ends_at", "created_by")
SELECT s."user_id", s."access_level", CASE WHEN s."status" = 'trialing' THEN 'trial' ELSE 'subscription' END, s."id",
  least(s."created_at", now()), s."cancel_at", '00000000-0000-0000-0000-000000000000'
FROM "subscriptions" s
WHERE s."status" IN ('active', 'trialing', 'past_due') AND (s."cancel_at" IS NULL OR s."cancel_at" > now())
  AND s."access_level" IN ('subscriber', 'premium');--> statement-breakpoint
-- A member's level no granting subscription explains was set by staff (or seeded): an open comp, made
-- by the admin who last set it when the audit log says so, else by the system. A member whose
-- subscription has ended and whom no admin set is a lapse whose event has not arrived yet: no comp,
-- and the first read derives their level from their grants.
INSERT INTO "access_grants" ("user_id", "access_level", "source", "source_id", "starts_at", "created_by", "note")
SELECT p."id", p."access_level", 'comp', coalesce(a."actor_id", '00000000-0000-0000-0000-000000000000')::text,
  least(coalesce(a."created_at", p."updated_at"), now()), coalesce(a."actor_id", '00000000-0000-0000-0000-000000000000'),
  'The level this member had before the grants ledger'
FROM "profiles" p
LEFT JOIN LATERAL (
  SELECT l."actor_id", l."created_at" FROM "audit_log" l
  WHERE l."target_id" = p."id" AND l."action" = 'access_level.set' ORDER BY l."created_at" DESC LIMIT 1
) a ON true
WHERE p."role" = 'member' AND p."access_level" IN ('subscriber', 'premium')
  AND (a."actor_id" IS NOT NULL OR NOT EXISTS (SELECT 1 FROM "subscriptions" s WHERE s."user_id" = p."id"))
  AND NOT EXISTS (
    SELECT 1 FROM "access_grants" g
    WHERE g."user_id" = p."id" AND (g."access_level" = p."access_level" OR g."access_level" = 'premium')
  );--> statement-breakpoint
-- Every profile derives its level again at its next read (the grants above are now its only reasons).
UPDATE "profiles" SET "access_until" = now();
