CREATE TABLE "line_event_leader" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"epoch" integer NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "line_event_leader_one_row" CHECK ("line_event_leader"."id" = 1)
);
