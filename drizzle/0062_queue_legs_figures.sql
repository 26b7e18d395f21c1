-- A call passed on from a queue's answer into another queue (a transfer) is counted in each queue it
-- entered, in that queue's organization: the queue it left keeps it as offered and answered, with the
-- answerer's talk until the transfer (earlier_queues now keeps who answered there); a leg without an
-- answer is an overflow, offered and timed out as before. The line counts the call once, in the
-- organization of the first queue it entered. An update counts only the legs it took away or added,
-- and a bin whose longest wait is taken away finds it again among the calls and their legs.

-- the longest wait of a bin's calls in a queue, its own and in the queues they left (a call is never a
-- day long: its legs joined within a day of its start)
CREATE FUNCTION "line_call_longest_hold"(_bin timestamptz, _organization integer, _queue varchar, _abandon_hold smallint) RETURNS real LANGUAGE sql STABLE AS $$
  SELECT max(h) FROM (
    SELECT l."hold_seconds" AS h FROM "line_calls" l
    WHERE l."joined_at" >= _bin AND l."joined_at" < _bin + interval '15 minutes' AND l."organization_id" IS NOT DISTINCT FROM _organization
      AND l."queue" IS NOT DISTINCT FROM _queue AND "line_call_abandon_hold"(l."outcome", l."hold_seconds") IS NOT DISTINCT FROM _abandon_hold
    UNION ALL
    SELECT e."hold_seconds" FROM "line_calls" l,
      jsonb_to_recordset(l."earlier_queues") AS e("queue" varchar, "joined_at" timestamptz, "hold_seconds" real, "organization_id" integer)
    WHERE _abandon_hold IS NULL AND l."started_at" > _bin - interval '1 day' AND l."started_at" < _bin + interval '15 minutes'
      AND l."earlier_queues" <> '[]'::jsonb AND e."joined_at" >= _bin AND e."joined_at" < _bin + interval '15 minutes'
      AND coalesce(e."organization_id", l."organization_id") IS NOT DISTINCT FROM _organization AND e."queue" IS NOT DISTINCT FROM _queue
  ) AS holds
$$;
--> statement-breakpoint
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
      "longest_hold" = CASE WHEN sign < 0 AND c."hold_seconds" >= i."longest_hold" THEN "line_call_longest_hold"(_bin, c."organization_id", c."queue", _abandon_hold)
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
-- the queues a call left, each with the organization it is counted in
CREATE FUNCTION "line_call_queue_legs"(c "line_calls") RETURNS SETOF jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT e || jsonb_build_object('organization_id', coalesce((e ->> 'organization_id')::integer, c."organization_id"))
  FROM jsonb_array_elements(c."earlier_queues") AS e
$$;
--> statement-breakpoint
-- legs (as line_call_queue_legs gives them) counted in (sign 1) or taken out of (-1) their queues' and answerers' bins
CREATE FUNCTION "count_line_queue_legs"(legs jsonb, sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF legs IS NULL THEN RETURN; END IF;
  INSERT INTO "line_call_intervals" AS i ("bin", "organization_id", "queue", "abandon_hold", "offered", "answered", "timed_out", "answered_in_sl",
    "abandoned_in_sl", "completed", "hold_sum", "talk_sum", "handling_sum", "longest_hold")
  SELECT "line_call_bin"(l."joined_at"), l."organization_id", l."queue", NULL,
    sign * count(*)::int,
    sign * count(*) FILTER (WHERE l."answered_by" IS NOT NULL)::int,
    sign * count(*) FILTER (WHERE l."answered_by" IS NULL)::int,
    sign * count(*) FILTER (WHERE l."answered_by" IS NOT NULL AND l."hold_seconds" <= coalesce(l."service_level_seconds", 20))::int,
    sign * count(*) FILTER (WHERE l."answered_by" IS NULL AND l."hold_seconds" <= coalesce(l."service_level_seconds", 20))::int,
    sign * count(*) FILTER (WHERE l."answered_by" IS NOT NULL AND l."talk_seconds" IS NOT NULL)::int,
    sign * coalesce(sum(coalesce(l."hold_seconds", 0)) FILTER (WHERE l."answered_by" IS NOT NULL), 0),
    sign * coalesce(sum(l."talk_seconds") FILTER (WHERE l."answered_by" IS NOT NULL), 0),
    sign * coalesce(sum(l."talk_seconds" + coalesce(l."wrapup_seconds", 0)) FILTER (WHERE l."answered_by" IS NOT NULL), 0),
    max(l."hold_seconds")
  FROM jsonb_to_recordset(legs) AS l("queue" varchar, "joined_at" timestamptz, "hold_seconds" real, "service_level_seconds" integer,
    "answered_by" varchar, "answered_at" timestamptz, "talk_seconds" real, "wrapup_seconds" integer, "organization_id" integer)
  WHERE l."queue" IS NOT NULL AND l."joined_at" IS NOT NULL
  GROUP BY 1, 2, 3
  ON CONFLICT ON CONSTRAINT "line_call_intervals_key" DO UPDATE SET
    "offered" = i."offered" + excluded."offered", "answered" = i."answered" + excluded."answered", "timed_out" = i."timed_out" + excluded."timed_out",
    "answered_in_sl" = i."answered_in_sl" + excluded."answered_in_sl", "abandoned_in_sl" = i."abandoned_in_sl" + excluded."abandoned_in_sl",
    "completed" = i."completed" + excluded."completed", "hold_sum" = i."hold_sum" + excluded."hold_sum",
    "talk_sum" = i."talk_sum" + excluded."talk_sum", "handling_sum" = i."handling_sum" + excluded."handling_sum",
    "longest_hold" = CASE WHEN sign > 0 THEN greatest(i."longest_hold", excluded."longest_hold")
      WHEN excluded."longest_hold" >= i."longest_hold" THEN "line_call_longest_hold"(i."bin", i."organization_id", i."queue", i."abandon_hold")
      ELSE i."longest_hold" END;
  INSERT INTO "line_call_operator_intervals" AS o ("bin", "organization_id", "queue", "answered_by", "calls", "completed", "talk_sum", "wrapup_sum")
  SELECT "line_call_bin"(l."answered_at"), l."organization_id", l."queue", l."answered_by", sign * count(*)::int,
    sign * count(*) FILTER (WHERE l."talk_seconds" IS NOT NULL)::int, sign * coalesce(sum(l."talk_seconds"), 0),
    sign * coalesce(sum(coalesce(l."wrapup_seconds", 0)) FILTER (WHERE l."talk_seconds" IS NOT NULL), 0)
  FROM jsonb_to_recordset(legs) AS l("queue" varchar, "joined_at" timestamptz, "hold_seconds" real, "service_level_seconds" integer,
    "answered_by" varchar, "answered_at" timestamptz, "talk_seconds" real, "wrapup_seconds" integer, "organization_id" integer)
  WHERE l."answered_by" IS NOT NULL AND l."answered_at" IS NOT NULL
  GROUP BY 1, 2, 3, 4
  ON CONFLICT ON CONSTRAINT "line_call_operator_intervals_key" DO UPDATE SET
    "calls" = o."calls" + excluded."calls", "completed" = o."completed" + excluded."completed",
    "talk_sum" = o."talk_sum" + excluded."talk_sum", "wrapup_sum" = o."wrapup_sum" + excluded."wrapup_sum";
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "count_line_calls"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('appeals.keep_line_figures', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM "count_line_call"(OLD, -1); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "count_line_call"(NEW, 1); END IF;
  PERFORM "count_line_queue_legs"((SELECT jsonb_agg(d."leg") FROM (SELECT "line_call_queue_legs"(OLD) AS "leg" EXCEPT ALL SELECT "line_call_queue_legs"(NEW)) AS d), -1);
  PERFORM "count_line_queue_legs"((SELECT jsonb_agg(d."leg") FROM (SELECT "line_call_queue_legs"(NEW) AS "leg" EXCEPT ALL SELECT "line_call_queue_legs"(OLD)) AS d), 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP FUNCTION "count_line_call_legs"("line_calls", integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "count_line_entry"(c "line_calls", sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  _queued boolean := c."joined_at" IS NOT NULL;
  -- the line's organization: its first queue's, when the call was passed on to another organization's since
  _organization integer := coalesce((c."earlier_queues" -> 0 ->> 'organization_id')::integer, c."organization_id");
BEGIN
  IF c."line" IS NULL AND c."outcome" <> 'refused' THEN RETURN; END IF;
  INSERT INTO "line_entry_intervals" AS i ("bin", "organization_id", "line", "calls", "closed", "refused", "menu_hangup", "menu_timeout", "menu_invalid",
    "language_ru", "language_kk", "to_queue")
  VALUES ("line_call_bin"(c."started_at"), _organization, coalesce(c."line", ''), sign, sign * c."closed"::int, sign * (c."outcome" = 'refused')::int,
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
DROP TRIGGER "line_calls_entries_recounted" ON "line_calls";
--> statement-breakpoint
CREATE TRIGGER "line_calls_entries_recounted" AFTER UPDATE ON "line_calls" FOR EACH ROW
  WHEN ((OLD."organization_id", OLD."line", OLD."started_at", OLD."closed", OLD."outcome", OLD."menu_exit", OLD."language", OLD."joined_at", OLD."earlier_queues")
    IS DISTINCT FROM (NEW."organization_id", NEW."line", NEW."started_at", NEW."closed", NEW."outcome", NEW."menu_exit", NEW."language", NEW."joined_at", NEW."earlier_queues"))
  EXECUTE FUNCTION "count_line_entries"();
