-- The register's search finds the applicant by name (a surname) as well as words of the text, and a
-- number by its tail (`000001`). Dropping the generated column drops its index: it is made again.
ALTER TABLE "appeals" drop column "search";--> statement-breakpoint
ALTER TABLE "appeals" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('russian', "citizen_name" || ' ' || "text") || to_tsvector('simple', "citizen_name" || ' ' || "text")) STORED;--> statement-breakpoint
CREATE INDEX "appeals_search_idx" ON "appeals" USING gin ("search");--> statement-breakpoint
CREATE INDEX "appeals_number_tail_idx" ON "appeals" USING btree (reverse("number") text_pattern_ops);
