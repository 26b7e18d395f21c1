-- Every instance caches the principals behind tokens (src/lib/invalidated-cache.ts) and drops one
-- when this channel names it. A trigger, not the application, sends it: whatever changes an account
-- (the service, the CLI, an operator's SQL) is heard, and only once its transaction commits.
CREATE FUNCTION "notify_principal_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('principal_changed', OLD."id"::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_principal_updated" AFTER UPDATE ON "users" FOR EACH ROW
  WHEN (
    (OLD."email", OLD."role", OLD."user_type", OLD."organization_id", OLD."is_active", OLD."token_version")
    IS DISTINCT FROM (NEW."email", NEW."role", NEW."user_type", NEW."organization_id", NEW."is_active", NEW."token_version")
  )
  EXECUTE FUNCTION "notify_principal_changed"();
--> statement-breakpoint
CREATE TRIGGER "users_principal_deleted" AFTER DELETE ON "users" FOR EACH ROW
  EXECUTE FUNCTION "notify_principal_changed"();
