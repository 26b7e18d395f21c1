CREATE TABLE "data_protection_officers" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personal_data_access" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"actor_id" integer,
	"actor_email" varchar(254),
	"actor_role" varchar(16),
	"ip" varchar(64),
	"request_id" varchar(100),
	"action" varchar(8) NOT NULL,
	"subject" varchar(16) NOT NULL,
	"subject_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"route" varchar(200) NOT NULL,
	"detail" jsonb,
	"prev_hash" varchar(64) NOT NULL,
	"hash" varchar(64) NOT NULL,
	CONSTRAINT "personal_data_access_action_check" CHECK ("personal_data_access"."action" in ('read', 'export')),
	CONSTRAINT "personal_data_access_subject_check" CHECK ("personal_data_access"."subject" in ('appeal', 'transcript', 'person', 'call', 'line_call'))
);
--> statement-breakpoint
ALTER TABLE "data_protection_officers" ADD CONSTRAINT "data_protection_officers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personal_data_access_at_idx" ON "personal_data_access" USING btree ("at");--> statement-breakpoint
CREATE INDEX "personal_data_access_actor_idx" ON "personal_data_access" USING btree ("actor_id","id");--> statement-breakpoint
CREATE INDEX "personal_data_access_subjects_idx" ON "personal_data_access" USING gin ("subject_ids");--> statement-breakpoint
-- Append-only: no update, no truncate; a delete only from the retention purge, which says so for
-- its own transaction (set local appeals.audit_purge = 'on').
CREATE FUNCTION personal_data_access_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('appeals.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'personal_data_access is append-only (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER personal_data_access_append_only BEFORE UPDATE OR DELETE ON personal_data_access FOR EACH ROW EXECUTE FUNCTION personal_data_access_append_only();
--> statement-breakpoint
CREATE TRIGGER personal_data_access_no_truncate BEFORE TRUNCATE ON personal_data_access FOR EACH STATEMENT EXECUTE FUNCTION personal_data_access_append_only();
