CREATE TABLE "agent_choices" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"state" varchar(5) NOT NULL,
	"reason" varchar(40),
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_choices_state_check" CHECK ("agent_choices"."state" in ('ready', 'break'))
);
--> statement-breakpoint
ALTER TABLE "agent_choices" ADD CONSTRAINT "agent_choices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;