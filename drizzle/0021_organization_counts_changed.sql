-- The Shape B list carries each organization's counts: it is cached under the 'organizations'
-- topic, so a change of the counts (an employee or a terminal written, by whoever) drops it on
-- every instance with the commit, as a change of the organizations themselves does (0017).
CREATE TRIGGER "organization_counters_reference_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organization_counters" FOR EACH STATEMENT
  EXECUTE FUNCTION "notify_reference_changed"('organizations');
