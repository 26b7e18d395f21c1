-- Every instance keeps the answers of the reference reads in memory (src/lib/reference-cache.ts) and
-- drops a topic's copies when this channel names it. One notification per statement, sent with the
-- commit, whoever wrote: the service, the seed, the CLI or an operator's SQL.
CREATE FUNCTION "notify_reference_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('reference_changed', TG_ARGV[0]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "regions_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "regions" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('regions');
--> statement-breakpoint
CREATE TRIGGER "classifiers_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "classifiers" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('classifiers');
--> statement-breakpoint
CREATE TRIGGER "appeal_types_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "appeal_types" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('classifiers');
--> statement-breakpoint
CREATE TRIGGER "categories_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('classifiers');
--> statement-breakpoint
CREATE TRIGGER "subcategories_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "subcategories" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('classifiers');
--> statement-breakpoint
CREATE TRIGGER "sources_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sources" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('lists');
--> statement-breakpoint
CREATE TRIGGER "response_methods_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "response_methods" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('lists');
--> statement-breakpoint
CREATE TRIGGER "organization_groups_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organization_groups" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('groups');
--> statement-breakpoint
CREATE TRIGGER "organizations_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organizations" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('organizations');
