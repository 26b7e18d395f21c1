ALTER TABLE "line_calls" ADD COLUMN "service_level_seconds" integer;--> statement-breakpoint
ALTER TABLE "line_calls" ADD COLUMN "wrapup_seconds" integer;--> statement-breakpoint
CREATE INDEX "line_calls_joined_idx" ON "line_calls" USING btree ("joined_at");--> statement-breakpoint
CREATE INDEX "line_calls_organization_joined_idx" ON "line_calls" USING btree ("organization_id","joined_at");--> statement-breakpoint
CREATE INDEX "line_calls_answered_idx" ON "line_calls" USING btree ("answered_at");