CREATE TABLE "member_state_periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"interface" varchar(80) NOT NULL,
	"state" varchar(8) NOT NULL,
	"reason" varchar(80),
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "member_state_periods_state_check" CHECK ("member_state_periods"."state" in ('ready', 'ringing', 'on_call', 'wrap_up', 'break', 'offline'))
);
--> statement-breakpoint
CREATE TABLE "member_states" (
	"interface" varchar(80) PRIMARY KEY NOT NULL,
	"member_name" varchar(80) NOT NULL,
	"state" varchar(8) NOT NULL,
	"reason" varchar(80),
	"since" timestamp with time zone NOT NULL,
	"wrapup_until" timestamp with time zone,
	CONSTRAINT "member_states_state_check" CHECK ("member_states"."state" in ('ready', 'ringing', 'on_call', 'wrap_up', 'break', 'offline'))
);
--> statement-breakpoint
CREATE INDEX "member_state_periods_interface_idx" ON "member_state_periods" USING btree ("interface","started_at");--> statement-breakpoint
CREATE INDEX "member_state_periods_started_idx" ON "member_state_periods" USING btree ("started_at");