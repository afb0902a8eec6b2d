-- Every instance caches profiles for a few seconds; a change made anywhere (a payment, an admin's
-- grant, a deleted account) tells every instance at commit, so none answers with the old level.
CREATE FUNCTION "notify_profile_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('profile_changed', OLD.id::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "profiles_changed" AFTER UPDATE OR DELETE ON "profiles" FOR EACH ROW EXECUTE FUNCTION "notify_profile_changed"();
