-- The profile (names, position, phone, modules) is cached beside the principal: a change of those
-- columns is announced on the same channel.
DROP TRIGGER "users_principal_updated" ON "users";
--> statement-breakpoint
CREATE TRIGGER "users_principal_updated" AFTER UPDATE ON "users" FOR EACH ROW
  WHEN (
    (OLD."email", OLD."role", OLD."user_type", OLD."organization_id", OLD."is_active", OLD."token_version",
     OLD."last_name", OLD."first_name", OLD."middle_name", OLD."position", OLD."phone", OLD."modules")
    IS DISTINCT FROM
    (NEW."email", NEW."role", NEW."user_type", NEW."organization_id", NEW."is_active", NEW."token_version",
     NEW."last_name", NEW."first_name", NEW."middle_name", NEW."position", NEW."phone", NEW."modules")
  )
  EXECUTE FUNCTION "notify_principal_changed"();
