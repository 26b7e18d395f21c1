CREATE TABLE "line_entry_intervals" (
	"bin" timestamp with time zone NOT NULL,
	"organization_id" integer,
	"line" varchar(32) NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"closed" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"menu_hangup" integer DEFAULT 0 NOT NULL,
	"menu_timeout" integer DEFAULT 0 NOT NULL,
	"menu_invalid" integer DEFAULT 0 NOT NULL,
	"language_ru" integer DEFAULT 0 NOT NULL,
	"language_kk" integer DEFAULT 0 NOT NULL,
	"to_queue" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "line_entry_intervals_key" UNIQUE NULLS NOT DISTINCT("bin","organization_id","line")
);
--> statement-breakpoint
ALTER TABLE "line_calls" DROP CONSTRAINT "line_calls_outcome_check";--> statement-breakpoint
ALTER TABLE "line_calls" ADD COLUMN "menu_exit" varchar(8);--> statement-breakpoint
ALTER TABLE "line_calls" ADD COLUMN "closed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "line_calls" ADD COLUMN "earlier_queues" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "line_entry_intervals_organization_idx" ON "line_entry_intervals" USING btree ("organization_id","bin");--> statement-breakpoint
ALTER TABLE "line_calls" ADD CONSTRAINT "line_calls_menu_exit_check" CHECK ("line_calls"."menu_exit" in ('choice', 'timeout', 'invalid', 'hangup'));--> statement-breakpoint
ALTER TABLE "line_calls" ADD CONSTRAINT "line_calls_outcome_check" CHECK ("line_calls"."outcome" in ('waiting', 'answered', 'abandoned', 'timed_out', 'ended', 'unobserved', 'entered', 'announced', 'terminal', 'hangup', 'refused'));--> statement-breakpoint
-- A call's part in the line's own figures (sign 1) or its removal (sign -1), by the bin of its start:
-- every call that entered the inbound context (its line known; a refused call without a number
-- under ''); what ended in a menu counts only when the call never reached a queue (a menu's
-- time-out may send it to one).
CREATE FUNCTION "count_line_entry"(c "line_calls", sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  _queued boolean := c."joined_at" IS NOT NULL;
BEGIN
  IF c."line" IS NULL AND c."outcome" <> 'refused' THEN RETURN; END IF;
  INSERT INTO "line_entry_intervals" AS i ("bin", "organization_id", "line", "calls", "closed", "refused", "menu_hangup", "menu_timeout", "menu_invalid",
    "language_ru", "language_kk", "to_queue")
  VALUES ("line_call_bin"(c."started_at"), c."organization_id", coalesce(c."line", ''), sign, sign * c."closed"::int, sign * (c."outcome" = 'refused')::int,
    sign * coalesce(c."menu_exit" = 'hangup', false)::int,
    sign * coalesce(c."menu_exit" = 'timeout' AND NOT _queued, false)::int,
    sign * coalesce(c."menu_exit" = 'invalid' AND NOT _queued, false)::int,
    sign * coalesce(c."language" = 'ru', false)::int, sign * coalesce(c."language" = 'kk', false)::int, sign * _queued::int)
  ON CONFLICT ON CONSTRAINT "line_entry_intervals_key" DO UPDATE SET
    "calls" = i."calls" + excluded."calls", "closed" = i."closed" + excluded."closed", "refused" = i."refused" + excluded."refused",
    "menu_hangup" = i."menu_hangup" + excluded."menu_hangup", "menu_timeout" = i."menu_timeout" + excluded."menu_timeout",
    "menu_invalid" = i."menu_invalid" + excluded."menu_invalid", "language_ru" = i."language_ru" + excluded."language_ru",
    "language_kk" = i."language_kk" + excluded."language_kk", "to_queue" = i."to_queue" + excluded."to_queue";
END
$$;
--> statement-breakpoint
CREATE FUNCTION "count_line_entries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('appeals.keep_line_figures', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM "count_line_entry"(OLD, -1); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "count_line_entry"(NEW, 1); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "line_calls_entries_counted" AFTER INSERT OR DELETE ON "line_calls" FOR EACH ROW EXECUTE FUNCTION "count_line_entries"();
--> statement-breakpoint
CREATE TRIGGER "line_calls_entries_recounted" AFTER UPDATE ON "line_calls" FOR EACH ROW
  WHEN ((OLD."organization_id", OLD."line", OLD."started_at", OLD."closed", OLD."outcome", OLD."menu_exit", OLD."language", OLD."joined_at")
    IS DISTINCT FROM (NEW."organization_id", NEW."line", NEW."started_at", NEW."closed", NEW."outcome", NEW."menu_exit", NEW."language", NEW."joined_at"))
  EXECUTE FUNCTION "count_line_entries"();
--> statement-breakpoint
SELECT "count_line_entry"(l, 1) FROM "line_calls" l;
--> statement-breakpoint
-- A call that left a queue by its time limit and joined another (an overflow) is in both queues'
-- figures: the queues it left are kept in earlier_queues, each offered and timed out in its own
-- queue and bin of its joining. (A removed leg leaves its bin's longest hold as it was: legs are
-- only removed to be written again, or with their call by the retention, which keeps the figures.)
CREATE FUNCTION "count_line_call_legs"(c "line_calls", sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "line_call_intervals" AS i ("bin", "organization_id", "queue", "abandon_hold", "offered", "timed_out", "abandoned_in_sl", "longest_hold")
  SELECT "line_call_bin"(l."joined_at"), c."organization_id", l."queue", NULL, sign * count(*)::int, sign * count(*)::int,
    sign * count(*) FILTER (WHERE l."hold_seconds" <= coalesce(l."service_level_seconds", 20))::int,
    CASE WHEN sign > 0 THEN max(l."hold_seconds") END
  FROM jsonb_to_recordset(c."earlier_queues") AS l("queue" varchar, "joined_at" timestamptz, "hold_seconds" real, "service_level_seconds" integer)
  WHERE l."queue" IS NOT NULL AND l."joined_at" IS NOT NULL
  GROUP BY 1, 3
  ON CONFLICT ON CONSTRAINT "line_call_intervals_key" DO UPDATE SET
    "offered" = i."offered" + excluded."offered", "timed_out" = i."timed_out" + excluded."timed_out",
    "abandoned_in_sl" = i."abandoned_in_sl" + excluded."abandoned_in_sl",
    "longest_hold" = CASE WHEN sign < 0 THEN i."longest_hold" ELSE greatest(i."longest_hold", excluded."longest_hold") END;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "count_line_calls"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('appeals.keep_line_figures', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM "count_line_call"(OLD, -1); PERFORM "count_line_call_legs"(OLD, -1); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "count_line_call"(NEW, 1); PERFORM "count_line_call_legs"(NEW, 1); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "line_calls_recounted" ON "line_calls";
--> statement-breakpoint
CREATE TRIGGER "line_calls_recounted" AFTER UPDATE ON "line_calls" FOR EACH ROW
  WHEN ((OLD."organization_id", OLD."queue", OLD."joined_at", OLD."outcome", OLD."hold_seconds", OLD."talk_seconds", OLD."service_level_seconds",
    OLD."wrapup_seconds", OLD."answered_by", OLD."answered_at", OLD."earlier_queues")
    IS DISTINCT FROM (NEW."organization_id", NEW."queue", NEW."joined_at", NEW."outcome", NEW."hold_seconds", NEW."talk_seconds", NEW."service_level_seconds",
    NEW."wrapup_seconds", NEW."answered_by", NEW."answered_at", NEW."earlier_queues"))
  EXECUTE FUNCTION "count_line_calls"();
