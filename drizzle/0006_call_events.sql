CREATE TABLE "call_chunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"call_row_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"channel" varchar(32) NOT NULL,
	"chunk_text" text NOT NULL,
	"is_final" boolean DEFAULT false NOT NULL,
	"fingerprint" varchar(64) NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"call_id" varchar(128),
	"operator_num" varchar(32) NOT NULL,
	"terminal_id" varchar(40),
	"organization_id" integer,
	"employee_id" integer,
	"caller_phone" varchar(32),
	"person_id" integer,
	"answered_at" timestamp with time zone,
	"transcript" text DEFAULT '' NOT NULL,
	"is_final" boolean DEFAULT false NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sip_terminals" ADD COLUMN "employee_id" integer;--> statement-breakpoint
ALTER TABLE "call_chunks" ADD CONSTRAINT "call_chunks_call_row_id_calls_id_fk" FOREIGN KEY ("call_row_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_employee_id_users_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_person_id_persons_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."persons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "call_chunks_fingerprint_unique" ON "call_chunks" USING btree ("call_row_id","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "call_chunks_seq_unique" ON "call_chunks" USING btree ("call_row_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "calls_call_id_unique" ON "calls" USING btree ("call_id");--> statement-breakpoint
CREATE INDEX "calls_operator_idx" ON "calls" USING btree ("operator_num","created_at");--> statement-breakpoint
CREATE INDEX "calls_organization_idx" ON "calls" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "calls_phone_idx" ON "calls" USING btree ("caller_phone","created_at");--> statement-breakpoint
CREATE INDEX "calls_created_idx" ON "calls" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "sip_terminals" ADD CONSTRAINT "sip_terminals_employee_id_users_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;