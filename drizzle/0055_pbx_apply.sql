CREATE TABLE "pbx_apply_state" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"pending_reloads" text[] DEFAULT '{}'::text[] NOT NULL,
	"write_seq" bigint DEFAULT 0 NOT NULL,
	"applied_at" timestamp with time zone,
	"error" text,
	"error_at" timestamp with time zone,
	CONSTRAINT "pbx_apply_state_one_row" CHECK ("pbx_apply_state"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "pbx_versions" (
	"scope" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"applied" bigint,
	"prefix" varchar(3),
	"problem" text,
	"problem_since" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "sip_terminals_employee_idx" ON "sip_terminals" USING btree ("employee_id");
--> statement-breakpoint
INSERT INTO "pbx_apply_state" ("id") VALUES (1);
--> statement-breakpoint
CREATE SEQUENCE "pbx_change_seq";
--> statement-breakpoint
-- Every organization is new to the apply: its files are written on the first one.
INSERT INTO "pbx_versions" ("scope", "version") SELECT "id", nextval('pbx_change_seq') FROM "organizations"
UNION ALL SELECT 0, nextval('pbx_change_seq') UNION ALL SELECT -1, nextval('pbx_change_seq');
--> statement-breakpoint
-- One statement-level trigger function for every table the files are written from. Its argument is
-- a query naming the scopes the statement's rows belong to, over the transition tables `changed`
-- (the new rows; the old ones on a delete) and, on an update, `changed_before`: a bulk insert of
-- 100,000 terminals bumps each organization once, not 100,000 times.
CREATE FUNCTION "pbx_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO "pbx_versions" ("scope", "version")
    SELECT "scope", nextval(''pbx_change_seq'') FROM (SELECT DISTINCT "scope" FROM (%s) s("scope") WHERE "scope" IS NOT NULL) d
    ON CONFLICT ("scope") DO UPDATE SET "version" = excluded."version"', TG_ARGV[0]);
  PERFORM pg_notify('pbx_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  -- the table, and the query of its rows' scopes (the organization a row belongs to, or -1 / 0)
  sources text[][] := ARRAY[
    ARRAY['organizations', 'SELECT "id" FROM changed'],
    ARRAY['sip_terminals', 'SELECT "organization_id" FROM changed'],
    ARRAY['queues', 'SELECT "organization_id" FROM changed'],
    ARRAY['queue_members', 'SELECT "organization_id" FROM changed'],
    ARRAY['menus', 'SELECT "organization_id" FROM changed'],
    ARRAY['menu_options', 'SELECT "organization_id" FROM changed'],
    ARRAY['inbound_lines', 'SELECT "organization_id" FROM changed'],
    ARRAY['schedules', 'SELECT "organization_id" FROM changed'],
    ARRAY['prompts', 'SELECT "organization_id" FROM changed'],
    ARRAY['outbound_routes', 'SELECT "organization_id" FROM changed'],
    ARRAY['schedule_hours', 'SELECT s."organization_id" FROM changed c JOIN "schedules" s ON s."id" = c."schedule_id"'],
    ARRAY['prompt_recordings', 'SELECT p."organization_id" FROM changed c JOIN "prompts" p ON p."id" = c."prompt_id"'],
    ARRAY['outbound_route_trunks', 'SELECT r."organization_id" FROM changed c JOIN "outbound_routes" r ON r."id" = c."route_id"'],
    ARRAY['ps_endpoints', 'SELECT t."organization_id" FROM changed c JOIN "sip_terminals" t ON t."id" = c."id"'],
    ARRAY['ps_auths', 'SELECT t."organization_id" FROM changed c JOIN "sip_terminals" t ON t."id" = c."id"'],
    ARRAY['ps_aors', 'SELECT t."organization_id" FROM changed c JOIN "sip_terminals" t ON t."id" = c."id"'],
    ARRAY['regions', 'SELECT -1'],
    ARRAY['trunks', 'SELECT -1'],
    ARRAY['platform_tenants', 'SELECT -1'],
    ARRAY['calendar_days', 'SELECT 0']
  ];
  source text[];
BEGIN
  FOREACH source SLICE 1 IN ARRAY sources LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "pbx_rows_changed"(%L)',
      source[1] || '_pbx_inserted', source[1], source[2]);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "pbx_rows_changed"(%L)',
      source[1] || '_pbx_deleted', source[1], source[2]);
    -- an update counts for the rows' old scope and their new one (a row moved between organizations)
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "pbx_rows_changed"(%L)',
      source[1] || '_pbx_updated', source[1], source[2] || ' UNION ' || replace(source[2], 'FROM changed', 'FROM changed_before'));
  END LOOP;
END
$$;
--> statement-breakpoint
-- whether a terminal's employee may record prompts by phone follows their role: only a change of it counts
CREATE TRIGGER "users_pbx_updated" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT
  EXECUTE FUNCTION "pbx_rows_changed"('SELECT t."organization_id" FROM changed c JOIN changed_before b ON b."id" = c."id" JOIN "sip_terminals" t ON t."employee_id" = c."id"
    WHERE (c."role", c."is_active", c."organization_id") IS DISTINCT FROM (b."role", b."is_active", b."organization_id")');
