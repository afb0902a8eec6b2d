-- The change log (platform/changes): every cache-dropping notice is also a row, read by serverless instances.
CREATE TABLE "change_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"payload" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "change_events_at_idx" ON "change_events" USING btree ("at");--> statement-breakpoint
-- A profile's change is logged beside its notice, for instances that cannot LISTEN (serverless).
CREATE OR REPLACE FUNCTION "notify_profile_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "change_events" ("channel", "payload") VALUES ('profile_changed', OLD.id::text);
  PERFORM pg_notify('profile_changed', OLD.id::text);
  RETURN NULL;
END;
$$;
