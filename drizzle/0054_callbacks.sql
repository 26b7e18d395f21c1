CREATE TABLE "callback_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"linkedid" varchar(64) NOT NULL,
	"organization_id" integer,
	"queue" varchar(80) NOT NULL,
	"line" varchar(32),
	"number" varchar(16) NOT NULL,
	"language" varchar(2),
	"joined_at" timestamp with time zone NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"status" varchar(8) DEFAULT 'waiting' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"placed_call_id" integer,
	"placed_at" timestamp with time zone,
	"reached_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"reason" varchar(64),
	CONSTRAINT "callback_requests_status_check" CHECK ("callback_requests"."status" in ('waiting', 'placing', 'reached', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "line_calls" DROP CONSTRAINT "line_calls_outcome_check";--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "callback_offer_after" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "callback_prompt_id" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "callback_retries" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "callback_retry_interval" integer DEFAULT 300 NOT NULL;--> statement-breakpoint
ALTER TABLE "placed_calls" ADD COLUMN "kind" varchar(8) DEFAULT 'call' NOT NULL;--> statement-breakpoint
ALTER TABLE "placed_calls" ADD COLUMN "callback_id" integer;--> statement-breakpoint
ALTER TABLE "callback_requests" ADD CONSTRAINT "callback_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "callback_requests_linkedid_key" ON "callback_requests" USING btree ("linkedid");--> statement-breakpoint
CREATE INDEX "callback_requests_waiting_idx" ON "callback_requests" USING btree ("queue","joined_at") WHERE status = 'waiting';--> statement-breakpoint
CREATE INDEX "callback_requests_due_idx" ON "callback_requests" USING btree ("next_attempt_at") WHERE status = 'waiting';--> statement-breakpoint
CREATE INDEX "callback_requests_placing_idx" ON "callback_requests" USING btree ("id") WHERE status = 'placing';--> statement-breakpoint
CREATE INDEX "callback_requests_requested_idx" ON "callback_requests" USING btree ("requested_at");--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_callback_prompt_fk" FOREIGN KEY ("organization_id","callback_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "placed_calls_callback_idx" ON "placed_calls" USING btree ("placed_at") WHERE kind = 'callback';--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_callback_check" CHECK ("queues"."callback_offer_after" is null or "queues"."callback_prompt_id" is not null);--> statement-breakpoint
ALTER TABLE "line_calls" ADD CONSTRAINT "line_calls_outcome_check" CHECK ("line_calls"."outcome" in ('waiting', 'answered', 'abandoned', 'timed_out', 'ended', 'unobserved', 'entered', 'announced', 'terminal', 'hangup', 'refused', 'callback'));--> statement-breakpoint
ALTER TABLE "placed_calls" ADD CONSTRAINT "placed_calls_kind_check" CHECK ("placed_calls"."kind" in ('call', 'callback'));