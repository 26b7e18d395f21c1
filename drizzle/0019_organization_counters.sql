CREATE TABLE "organization_counters" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"employees" integer DEFAULT 0 NOT NULL,
	"operators" integer DEFAULT 0 NOT NULL,
	"terminals" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_counters" ADD CONSTRAINT "organization_counters_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The counts start from what is there; from now on the triggers keep them, whoever writes the rows.
INSERT INTO "organization_counters" ("organization_id", "employees", "operators", "terminals")
SELECT o."id",
  (SELECT count(*) FROM "users" u WHERE u."organization_id" = o."id" AND u."is_active"),
  (SELECT count(*) FROM "users" u WHERE u."organization_id" = o."id" AND u."is_active" AND u."role" = 'operator'),
  (SELECT count(*) FROM "sip_terminals" t WHERE t."organization_id" = o."id")
FROM "organizations" o;
--> statement-breakpoint
CREATE FUNCTION "count_organization_staff"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD."organization_id" IS NOT NULL AND OLD."is_active" THEN
    UPDATE "organization_counters" SET "employees" = "employees" - 1, "operators" = "operators" - (OLD."role" = 'operator')::int
    WHERE "organization_id" = OLD."organization_id";
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."organization_id" IS NOT NULL AND NEW."is_active" THEN
    INSERT INTO "organization_counters" ("organization_id", "employees", "operators") VALUES (NEW."organization_id", 1, (NEW."role" = 'operator')::int)
    ON CONFLICT ("organization_id") DO UPDATE
      SET "employees" = "organization_counters"."employees" + 1, "operators" = "organization_counters"."operators" + excluded."operators";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_counted" AFTER INSERT OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "count_organization_staff"();
--> statement-breakpoint
CREATE TRIGGER "users_recounted" AFTER UPDATE ON "users" FOR EACH ROW
  WHEN ((OLD."organization_id", OLD."is_active", OLD."role") IS DISTINCT FROM (NEW."organization_id", NEW."is_active", NEW."role"))
  EXECUTE FUNCTION "count_organization_staff"();
--> statement-breakpoint
CREATE FUNCTION "count_organization_terminals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE "organization_counters" SET "terminals" = "terminals" - 1 WHERE "organization_id" = OLD."organization_id";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "organization_counters" ("organization_id", "terminals") VALUES (NEW."organization_id", 1)
    ON CONFLICT ("organization_id") DO UPDATE SET "terminals" = "organization_counters"."terminals" + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sip_terminals_counted" AFTER INSERT OR DELETE ON "sip_terminals" FOR EACH ROW EXECUTE FUNCTION "count_organization_terminals"();
--> statement-breakpoint
CREATE TRIGGER "sip_terminals_recounted" AFTER UPDATE ON "sip_terminals" FOR EACH ROW
  WHEN (OLD."organization_id" IS DISTINCT FROM NEW."organization_id")
  EXECUTE FUNCTION "count_organization_terminals"();
