CREATE TABLE "recording_bins" (
	"bin" timestamp with time zone PRIMARY KEY NOT NULL,
	"files" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "personal_data_access" DROP CONSTRAINT "personal_data_access_action_check";--> statement-breakpoint
ALTER TABLE "personal_data_access" ADD CONSTRAINT "personal_data_access_action_check" CHECK ("personal_data_access"."action" in ('read', 'export', 'purge'));--> statement-breakpoint
-- A kept recording's part in the disk figures (sign 1) or its removal (sign -1), by the 15 minutes
-- it was taken over in; a file found missing no longer takes disk.
CREATE FUNCTION "count_recording"(r "call_recordings", sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF r."missing_at" IS NOT NULL THEN RETURN; END IF;
  INSERT INTO "recording_bins" AS b ("bin", "files", "bytes")
  VALUES (date_bin('15 minutes', r."taken_at", timestamptz '2000-01-01 00:00:00+00'), sign, sign * r."bytes")
  ON CONFLICT ("bin") DO UPDATE SET "files" = b."files" + excluded."files", "bytes" = b."bytes" + excluded."bytes";
END
$$;
--> statement-breakpoint
CREATE FUNCTION "count_recordings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "count_recording"(OLD, -1); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "count_recording"(NEW, 1); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "call_recordings_counted" AFTER INSERT OR DELETE ON "call_recordings" FOR EACH ROW EXECUTE FUNCTION "count_recordings"();
--> statement-breakpoint
CREATE TRIGGER "call_recordings_recounted" AFTER UPDATE ON "call_recordings" FOR EACH ROW
  WHEN ((OLD."bytes", OLD."taken_at", OLD."missing_at") IS DISTINCT FROM (NEW."bytes", NEW."taken_at", NEW."missing_at"))
  EXECUTE FUNCTION "count_recordings"();
--> statement-breakpoint
SELECT "count_recording"(r, 1) FROM "call_recordings" r;
