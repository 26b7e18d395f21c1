CREATE TABLE "line_call_intervals" (
	"bin" timestamp with time zone NOT NULL,
	"organization_id" integer,
	"queue" varchar(80),
	"abandon_hold" smallint,
	"offered" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"abandoned" integer DEFAULT 0 NOT NULL,
	"timed_out" integer DEFAULT 0 NOT NULL,
	"answered_in_sl" integer DEFAULT 0 NOT NULL,
	"abandoned_in_sl" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"hold_sum" double precision DEFAULT 0 NOT NULL,
	"talk_sum" double precision DEFAULT 0 NOT NULL,
	"handling_sum" double precision DEFAULT 0 NOT NULL,
	"longest_hold" real,
	CONSTRAINT "line_call_intervals_key" UNIQUE NULLS NOT DISTINCT("bin","organization_id","queue","abandon_hold")
);
--> statement-breakpoint
CREATE TABLE "line_call_operator_intervals" (
	"bin" timestamp with time zone NOT NULL,
	"organization_id" integer,
	"queue" varchar(80),
	"answered_by" varchar(80) NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"talk_sum" double precision DEFAULT 0 NOT NULL,
	"wrapup_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "line_call_operator_intervals_key" UNIQUE NULLS NOT DISTINCT("bin","organization_id","queue","answered_by")
);
--> statement-breakpoint
CREATE INDEX "line_call_intervals_organization_idx" ON "line_call_intervals" USING btree ("organization_id","bin");--> statement-breakpoint
CREATE INDEX "line_call_operator_intervals_organization_idx" ON "line_call_operator_intervals" USING btree ("organization_id","bin");--> statement-breakpoint
CREATE INDEX "line_calls_waiting_idx" ON "line_calls" USING btree ("joined_at") WHERE outcome = 'waiting';--> statement-breakpoint
CREATE FUNCTION "line_call_bin"(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_bin('15 minutes', at, timestamptz '2000-01-01 00:00:00+00')
$$;
--> statement-breakpoint
-- an abandoned call's wait in whole seconds, 120 for two minutes or more (the short-abandon threshold is 0 to 120 s); null for any other call
CREATE FUNCTION "line_call_abandon_hold"(outcome varchar, hold real) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN outcome = 'abandoned' AND hold IS NOT NULL THEN least(floor(hold), 120)::smallint END
$$;
--> statement-breakpoint
-- A call's part in the queue figures (sign 1) or its removal (sign -1): the rows of its bins are
-- added to. Its definitions are those of the README's "Queue figures" (a queue's servicelevel is
-- Asterisk's default, 20 s, when the service did not know the queue). A removed wait that was its
-- bin's longest makes the bin's longest read again from the calls.
CREATE FUNCTION "count_line_call"(c "line_calls", sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  _sl real := coalesce(c."service_level_seconds", 20);
  _answered boolean := c."outcome" = 'answered';
  _completed boolean := c."outcome" = 'answered' AND c."talk_seconds" IS NOT NULL;
  _abandon_hold smallint := "line_call_abandon_hold"(c."outcome", c."hold_seconds");
  _bin timestamptz := "line_call_bin"(c."joined_at");
BEGIN
  IF c."joined_at" IS NOT NULL THEN
    INSERT INTO "line_call_intervals" AS i ("bin", "organization_id", "queue", "abandon_hold", "offered", "answered", "abandoned", "timed_out",
      "answered_in_sl", "abandoned_in_sl", "completed", "hold_sum", "talk_sum", "handling_sum", "longest_hold")
    VALUES (_bin, c."organization_id", c."queue", _abandon_hold,
      sign, sign * _answered::int, sign * (_abandon_hold IS NOT NULL)::int, sign * (c."outcome" = 'timed_out')::int,
      sign * coalesce(_answered AND c."hold_seconds" <= _sl, false)::int,
      sign * coalesce(c."outcome" IN ('abandoned', 'timed_out') AND c."hold_seconds" <= _sl, false)::int,
      sign * _completed::int,
      CASE WHEN _answered THEN sign * coalesce(c."hold_seconds", 0) ELSE 0 END,
      CASE WHEN _completed THEN sign * c."talk_seconds" ELSE 0 END,
      CASE WHEN _completed THEN sign * (c."talk_seconds" + coalesce(c."wrapup_seconds", 0)) ELSE 0 END,
      CASE WHEN sign > 0 THEN c."hold_seconds" END)
    ON CONFLICT ON CONSTRAINT "line_call_intervals_key" DO UPDATE SET
      "offered" = i."offered" + excluded."offered", "answered" = i."answered" + excluded."answered",
      "abandoned" = i."abandoned" + excluded."abandoned", "timed_out" = i."timed_out" + excluded."timed_out",
      "answered_in_sl" = i."answered_in_sl" + excluded."answered_in_sl", "abandoned_in_sl" = i."abandoned_in_sl" + excluded."abandoned_in_sl",
      "completed" = i."completed" + excluded."completed", "hold_sum" = i."hold_sum" + excluded."hold_sum",
      "talk_sum" = i."talk_sum" + excluded."talk_sum", "handling_sum" = i."handling_sum" + excluded."handling_sum",
      "longest_hold" = CASE WHEN sign < 0 AND c."hold_seconds" >= i."longest_hold"
        THEN (SELECT max(l."hold_seconds") FROM "line_calls" l
          WHERE l."joined_at" >= _bin AND l."joined_at" < _bin + interval '15 minutes' AND l."organization_id" IS NOT DISTINCT FROM c."organization_id"
            AND l."queue" IS NOT DISTINCT FROM c."queue" AND "line_call_abandon_hold"(l."outcome", l."hold_seconds") IS NOT DISTINCT FROM _abandon_hold)
        ELSE greatest(i."longest_hold", excluded."longest_hold") END;
  END IF;
  IF _answered AND c."answered_by" IS NOT NULL AND c."answered_at" IS NOT NULL THEN
    INSERT INTO "line_call_operator_intervals" AS o ("bin", "organization_id", "queue", "answered_by", "calls", "completed", "talk_sum", "wrapup_sum")
    VALUES ("line_call_bin"(c."answered_at"), c."organization_id", c."queue", c."answered_by",
      sign, sign * (c."talk_seconds" IS NOT NULL)::int, sign * coalesce(c."talk_seconds", 0),
      CASE WHEN c."talk_seconds" IS NOT NULL THEN sign * coalesce(c."wrapup_seconds", 0) ELSE 0 END)
    ON CONFLICT ON CONSTRAINT "line_call_operator_intervals_key" DO UPDATE SET
      "calls" = o."calls" + excluded."calls", "completed" = o."completed" + excluded."completed",
      "talk_sum" = o."talk_sum" + excluded."talk_sum", "wrapup_sum" = o."wrapup_sum" + excluded."wrapup_sum";
  END IF;
END
$$;
--> statement-breakpoint
-- the retention's purge of old calls (personal data) keeps their figures: it sets appeals.keep_line_figures
CREATE FUNCTION "count_line_calls"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('appeals.keep_line_figures', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM "count_line_call"(OLD, -1); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "count_line_call"(NEW, 1); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "line_calls_counted" AFTER INSERT OR DELETE ON "line_calls" FOR EACH ROW EXECUTE FUNCTION "count_line_calls"();
--> statement-breakpoint
-- most of a call's writes change none of its figures (a ring, a position): those add nothing
CREATE TRIGGER "line_calls_recounted" AFTER UPDATE ON "line_calls" FOR EACH ROW
  WHEN ((OLD."organization_id", OLD."queue", OLD."joined_at", OLD."outcome", OLD."hold_seconds", OLD."talk_seconds", OLD."service_level_seconds",
    OLD."wrapup_seconds", OLD."answered_by", OLD."answered_at")
    IS DISTINCT FROM (NEW."organization_id", NEW."queue", NEW."joined_at", NEW."outcome", NEW."hold_seconds", NEW."talk_seconds", NEW."service_level_seconds",
    NEW."wrapup_seconds", NEW."answered_by", NEW."answered_at"))
  EXECUTE FUNCTION "count_line_calls"();
--> statement-breakpoint
-- the sums start from the calls already kept
SELECT "count_line_call"(l, 1) FROM "line_calls" l;
