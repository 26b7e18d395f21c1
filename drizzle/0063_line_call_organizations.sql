-- Every organization a call reached: its own (organization_id) and those of the queues it was passed
-- on from. A manager's list of calls reads this, so that a call the centre passed on into an
-- executor's queue stays in the centre's list as well as entering the executor's.
ALTER TABLE "line_calls" ADD COLUMN "organization_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
-- (the calls never passed on from a queue take their own organization; the others, few, are worked out)
UPDATE "line_calls" SET "organization_ids" = ARRAY["organization_id"] WHERE "organization_id" IS NOT NULL AND "earlier_queues" = '[]'::jsonb;--> statement-breakpoint
UPDATE "line_calls" l SET "organization_ids" = coalesce((
  SELECT array_agg(DISTINCT o ORDER BY o) FROM (
    SELECT l."organization_id" AS o
    UNION ALL
    SELECT coalesce((e->>'organization_id')::integer, l."organization_id") FROM jsonb_array_elements(l."earlier_queues") AS e
  ) AS reached WHERE o IS NOT NULL
), '{}') WHERE l."earlier_queues" <> '[]'::jsonb;--> statement-breakpoint
CREATE INDEX "line_calls_organization_ids_idx" ON "line_calls" USING gin ("organization_ids");
