ALTER TABLE "inbound_lines" ADD COLUMN "recording" varchar(8) DEFAULT 'always' NOT NULL;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD COLUMN "recording_prompt_id" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "rating_prompt_id" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "rating_timeout" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "line_calls" ADD COLUMN "rating" smallint;--> statement-breakpoint
ALTER TABLE "line_calls" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "line_calls" ADD COLUMN "reviewed_by" integer;--> statement-breakpoint
ALTER TABLE "line_calls" ADD COLUMN "review_comment" varchar(2000);--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_recording_prompt_fk" FOREIGN KEY ("organization_id","recording_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_rating_prompt_fk" FOREIGN KEY ("organization_id","rating_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_calls" ADD CONSTRAINT "line_calls_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "line_calls_review_idx" ON "line_calls" USING btree ("ended_at") WHERE rating <= 2 and reviewed_at is null;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_recording_check" CHECK ("inbound_lines"."recording" in ('always', 'off'));--> statement-breakpoint
ALTER TABLE "line_calls" ADD CONSTRAINT "line_calls_rating_check" CHECK ("line_calls"."rating" between 1 and 5);