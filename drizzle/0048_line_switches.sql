CREATE TABLE "line_switches" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"line_id" integer NOT NULL,
	"action" varchar(5) NOT NULL,
	"reason" varchar(200),
	"until" timestamp with time zone,
	"prompt_id" integer,
	"user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "line_switches_action_check" CHECK ("line_switches"."action" in ('close', 'open')),
	CONSTRAINT "line_switches_reason_check" CHECK ("line_switches"."action" = 'open' or "line_switches"."reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "line_switches" ADD CONSTRAINT "line_switches_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_switches" ADD CONSTRAINT "line_switches_line_id_inbound_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."inbound_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_switches" ADD CONSTRAINT "line_switches_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_switches" ADD CONSTRAINT "line_switches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "line_switches_line_idx" ON "line_switches" USING btree ("line_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "line_switches_organization_idx" ON "line_switches" USING btree ("organization_id","id" DESC NULLS LAST);