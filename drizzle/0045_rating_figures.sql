ALTER TABLE "line_call_intervals" ADD COLUMN "rated" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "line_call_intervals" ADD COLUMN "rating_sum" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "line_call_operator_intervals" ADD COLUMN "rated" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "line_call_operator_intervals" ADD COLUMN "rating_sum" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A call's part in the queue figures, as 0035 counts it, and now its citizen's score too (an
-- answered call rated in the queue's rating menu): counted in the bins of its queue and operator.
CREATE OR REPLACE FUNCTION "count_line_call"(c "line_calls", sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  _sl real := coalesce(c."service_level_seconds", 20);
  _answered boolean := c."outcome" = 'answered';
  _completed boolean := c."outcome" = 'answered' AND c."talk_seconds" IS NOT NULL;
  _abandon_hold smallint := "line_call_abandon_hold"(c."outcome", c."hold_seconds");
  _bin timestamptz := "line_call_bin"(c."joined_at");
  _rated boolean := c."outcome" = 'answered' AND c."rating" IS NOT NULL;
BEGIN
  IF c."joined_at" IS NOT NULL THEN
    INSERT INTO "line_call_intervals" AS i ("bin", "organization_id", "queue", "abandon_hold", "offered", "answered", "abandoned", "timed_out",
      "answered_in_sl", "abandoned_in_sl", "completed", "hold_sum", "talk_sum", "handling_sum", "longest_hold", "rated", "rating_sum")
    VALUES (_bin, c."organization_id", c."queue", _abandon_hold,
      sign, sign * _answered::int, sign * (_abandon_hold IS NOT NULL)::int, sign * (c."outcome" = 'timed_out')::int,
      sign * coalesce(_answered AND c."hold_seconds" <= _sl, false)::int,
      sign * coalesce(c."outcome" IN ('abandoned', 'timed_out') AND c."hold_seconds" <= _sl, false)::int,
      sign * _completed::int,
      CASE WHEN _answered THEN sign * coalesce(c."hold_seconds", 0) ELSE 0 END,
      CASE WHEN _completed THEN sign * c."talk_seconds" ELSE 0 END,
      CASE WHEN _completed THEN sign * (c."talk_seconds" + coalesce(c."wrapup_seconds", 0)) ELSE 0 END,
      CASE WHEN sign > 0 THEN c."hold_seconds" END,
      sign * _rated::int, CASE WHEN _rated THEN sign * c."rating" ELSE 0 END)
    ON CONFLICT ON CONSTRAINT "line_call_intervals_key" DO UPDATE SET
      "offered" = i."offered" + excluded."offered", "answered" = i."answered" + excluded."answered",
      "abandoned" = i."abandoned" + excluded."abandoned", "timed_out" = i."timed_out" + excluded."timed_out",
      "answered_in_sl" = i."answered_in_sl" + excluded."answered_in_sl", "abandoned_in_sl" = i."abandoned_in_sl" + excluded."abandoned_in_sl",
      "completed" = i."completed" + excluded."completed", "hold_sum" = i."hold_sum" + excluded."hold_sum",
      "talk_sum" = i."talk_sum" + excluded."talk_sum", "handling_sum" = i."handling_sum" + excluded."handling_sum",
      "rated" = i."rated" + excluded."rated", "rating_sum" = i."rating_sum" + excluded."rating_sum",
      "longest_hold" = CASE WHEN sign < 0 AND c."hold_seconds" >= i."longest_hold"
        THEN (SELECT max(l."hold_seconds") FROM "line_calls" l
          WHERE l."joined_at" >= _bin AND l."joined_at" < _bin + interval '15 minutes' AND l."organization_id" IS NOT DISTINCT FROM c."organization_id"
            AND l."queue" IS NOT DISTINCT FROM c."queue" AND "line_call_abandon_hold"(l."outcome", l."hold_seconds") IS NOT DISTINCT FROM _abandon_hold)
        ELSE greatest(i."longest_hold", excluded."longest_hold") END;
  END IF;
  IF _answered AND c."answered_by" IS NOT NULL AND c."answered_at" IS NOT NULL THEN
    INSERT INTO "line_call_operator_intervals" AS o ("bin", "organization_id", "queue", "answered_by", "calls", "completed", "talk_sum", "wrapup_sum", "rated", "rating_sum")
    VALUES ("line_call_bin"(c."answered_at"), c."organization_id", c."queue", c."answered_by",
      sign, sign * (c."talk_seconds" IS NOT NULL)::int, sign * coalesce(c."talk_seconds", 0),
      CASE WHEN c."talk_seconds" IS NOT NULL THEN sign * coalesce(c."wrapup_seconds", 0) ELSE 0 END,
      sign * _rated::int, CASE WHEN _rated THEN sign * c."rating" ELSE 0 END)
    ON CONFLICT ON CONSTRAINT "line_call_operator_intervals_key" DO UPDATE SET
      "calls" = o."calls" + excluded."calls", "completed" = o."completed" + excluded."completed",
      "talk_sum" = o."talk_sum" + excluded."talk_sum", "wrapup_sum" = o."wrapup_sum" + excluded."wrapup_sum",
      "rated" = o."rated" + excluded."rated", "rating_sum" = o."rating_sum" + excluded."rating_sum";
  END IF;
END
$$;
--> statement-breakpoint
DROP TRIGGER "line_calls_recounted" ON "line_calls";
--> statement-breakpoint
CREATE TRIGGER "line_calls_recounted" AFTER UPDATE ON "line_calls" FOR EACH ROW
  WHEN ((OLD."organization_id", OLD."queue", OLD."joined_at", OLD."outcome", OLD."hold_seconds", OLD."talk_seconds", OLD."service_level_seconds",
    OLD."wrapup_seconds", OLD."answered_by", OLD."answered_at", OLD."earlier_queues", OLD."rating")
    IS DISTINCT FROM (NEW."organization_id", NEW."queue", NEW."joined_at", NEW."outcome", NEW."hold_seconds", NEW."talk_seconds", NEW."service_level_seconds",
    NEW."wrapup_seconds", NEW."answered_by", NEW."answered_at", NEW."earlier_queues", NEW."rating"))
  EXECUTE FUNCTION "count_line_calls"();
