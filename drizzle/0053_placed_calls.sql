CREATE TABLE "placed_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"linkedid" varchar(64) NOT NULL,
	"employee_id" integer,
	"organization_id" integer,
	"terminal_id" varchar(40) NOT NULL,
	"number" varchar(16) NOT NULL,
	"dialled" varchar(16) NOT NULL,
	"appeal_id" integer,
	"person_id" integer,
	"status" varchar(16) DEFAULT 'ringing_you' NOT NULL,
	"failed_side" varchar(8),
	"reason" varchar(64),
	"placed_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"connected_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"talk_seconds" integer,
	CONSTRAINT "placed_calls_status_check" CHECK ("placed_calls"."status" in ('ringing_you', 'ringing_citizen', 'connected', 'ended', 'no_answer', 'busy', 'failed')),
	CONSTRAINT "placed_calls_failed_side_check" CHECK ("placed_calls"."failed_side" in ('you', 'citizen'))
);
--> statement-breakpoint
ALTER TABLE "appeal_events" DROP CONSTRAINT "appeal_events_action_check";--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "direction" varchar(3) DEFAULT 'in' NOT NULL;--> statement-breakpoint
ALTER TABLE "appeals" ADD COLUMN "answer_call_id" integer;--> statement-breakpoint
ALTER TABLE "placed_calls" ADD CONSTRAINT "placed_calls_employee_id_users_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placed_calls" ADD CONSTRAINT "placed_calls_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placed_calls" ADD CONSTRAINT "placed_calls_appeal_id_appeals_id_fk" FOREIGN KEY ("appeal_id") REFERENCES "public"."appeals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placed_calls" ADD CONSTRAINT "placed_calls_person_id_persons_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."persons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "placed_calls_linkedid_key" ON "placed_calls" USING btree ("linkedid");--> statement-breakpoint
CREATE UNIQUE INDEX "placed_calls_live_key" ON "placed_calls" USING btree ("employee_id") WHERE status in ('ringing_you', 'ringing_citizen', 'connected');--> statement-breakpoint
CREATE INDEX "placed_calls_employee_idx" ON "placed_calls" USING btree ("employee_id","placed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "placed_calls_appeal_idx" ON "placed_calls" USING btree ("appeal_id","placed_at" DESC NULLS LAST) WHERE appeal_id is not null;--> statement-breakpoint
CREATE INDEX "placed_calls_organization_idx" ON "placed_calls" USING btree ("organization_id","placed_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_direction_check" CHECK ("calls"."direction" in ('in', 'out'));--> statement-breakpoint
ALTER TABLE "appeal_events" ADD CONSTRAINT "appeal_events_action_check" CHECK ("appeal_events"."action" in ('register', 'assign', 'take', 'redirect', 'extend', 'answer', 'return', 'close', 'reject', 'overdue', 'call'));