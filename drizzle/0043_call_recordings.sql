CREATE TABLE "call_recordings" (
	"id" serial PRIMARY KEY NOT NULL,
	"linkedid" varchar(64) NOT NULL,
	"leg" varchar(64) NOT NULL,
	"terminal" varchar(80),
	"file" varchar(300) NOT NULL,
	"format" varchar(4) NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"seconds" real NOT NULL,
	"bytes" bigint NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"missing_at" timestamp with time zone,
	CONSTRAINT "call_recordings_leg_key" UNIQUE("linkedid","leg"),
	CONSTRAINT "call_recordings_format_check" CHECK ("call_recordings"."format" in ('opus', 'wav'))
);
--> statement-breakpoint
ALTER TABLE "personal_data_access" DROP CONSTRAINT "personal_data_access_subject_check";--> statement-breakpoint
CREATE INDEX "call_recordings_started_idx" ON "call_recordings" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "call_recordings_raw_idx" ON "call_recordings" USING btree ("id") WHERE format = 'wav';--> statement-breakpoint
ALTER TABLE "personal_data_access" ADD CONSTRAINT "personal_data_access_subject_check" CHECK ("personal_data_access"."subject" in ('appeal', 'transcript', 'person', 'call', 'line_call', 'recording'));