ALTER TABLE "line_calls" DROP CONSTRAINT "line_calls_outcome_check";--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "hung_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "line_calls" ADD CONSTRAINT "line_calls_outcome_check" CHECK ("line_calls"."outcome" in ('waiting', 'answered', 'abandoned', 'timed_out', 'ended', 'unobserved'));