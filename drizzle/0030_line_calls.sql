CREATE TABLE "line_calls" (
	"linkedid" varchar(64) PRIMARY KEY NOT NULL,
	"organization_id" integer,
	"caller_number" varchar(80),
	"line" varchar(32),
	"menu_choice" varchar(4),
	"language" varchar(8),
	"queue" varchar(80),
	"joined_at" timestamp with time zone,
	"position" integer,
	"attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"answered_by" varchar(80),
	"answered_at" timestamp with time zone,
	"hold_seconds" real,
	"talk_seconds" real,
	"ended_by" varchar(16),
	"outcome" varchar(10) NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "line_calls_outcome_check" CHECK ("line_calls"."outcome" in ('waiting', 'answered', 'abandoned', 'timed_out', 'ended'))
);
--> statement-breakpoint
ALTER TABLE "line_calls" ADD CONSTRAINT "line_calls_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "line_calls_started_idx" ON "line_calls" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "line_calls_organization_started_idx" ON "line_calls" USING btree ("organization_id","started_at");