CREATE TABLE "appeal_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appeal_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"appeal_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" integer,
	"action" varchar(16) NOT NULL,
	"from_status" varchar(16),
	"to_status" varchar(16) NOT NULL,
	"reason" varchar(1000),
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "appeal_events_action_check" CHECK ("appeal_events"."action" in ('register', 'assign', 'take', 'redirect', 'extend', 'answer', 'return', 'close', 'reject', 'overdue')),
	CONSTRAINT "appeal_events_from_status_check" CHECK ("appeal_events"."from_status" in ('registered', 'assigned', 'in_work', 'answered', 'closed', 'rejected')),
	CONSTRAINT "appeal_events_to_status_check" CHECK ("appeal_events"."to_status" in ('registered', 'assigned', 'in_work', 'answered', 'closed', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "appeals" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" varchar(20) NOT NULL,
	"status" varchar(16) NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"source_id" integer NOT NULL,
	"call_row_id" integer,
	"person_id" integer,
	"citizen_name" varchar(255) NOT NULL,
	"citizen_phone" varchar(16),
	"citizen_email" varchar(254),
	"language" varchar(2) NOT NULL,
	"text" text NOT NULL,
	"subcategory_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"appeal_type_id" integer NOT NULL,
	"classifier_id" integer NOT NULL,
	"priority" integer NOT NULL,
	"region_id" integer,
	"address" varchar(500),
	"response_method_id" integer NOT NULL,
	"executor_organization_id" integer,
	"executor_employee_id" integer,
	"operator_id" integer,
	"work_due_at" timestamp with time zone NOT NULL,
	"close_due_at" timestamp with time zone NOT NULL,
	"extended_until" timestamp with time zone,
	"extension_reason" varchar(1000),
	"work_overdue_at" timestamp with time zone,
	"close_overdue_at" timestamp with time zone,
	"taken_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"answer_text" text,
	"answer_language" varchar(2),
	"answer_attachments" jsonb,
	"answer_check" jsonb,
	"rejection_kind" varchar(24),
	"is_repeat" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('russian', "text") || to_tsvector('simple', "text")) STORED,
	CONSTRAINT "appeals_status_check" CHECK ("appeals"."status" in ('registered', 'assigned', 'in_work', 'answered', 'closed', 'rejected')),
	CONSTRAINT "appeals_language_check" CHECK ("appeals"."language" in ('kk', 'ru')),
	CONSTRAINT "appeals_answer_language_check" CHECK ("appeals"."answer_language" in ('kk', 'ru')),
	CONSTRAINT "appeals_rejection_kind_check" CHECK ("appeals"."rejection_kind" in ('not_an_appeal', 'duplicate', 'out_of_competence'))
);
--> statement-breakpoint
CREATE TABLE "calendar_days" (
	"day" date PRIMARY KEY NOT NULL,
	"kind" varchar(8) NOT NULL,
	"name" varchar(255) NOT NULL,
	CONSTRAINT "calendar_days_kind_check" CHECK ("calendar_days"."kind" in ('holiday', 'working'))
);
--> statement-breakpoint
ALTER TABLE "appeal_events" ADD CONSTRAINT "appeal_events_appeal_id_appeals_id_fk" FOREIGN KEY ("appeal_id") REFERENCES "public"."appeals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeal_events" ADD CONSTRAINT "appeal_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_call_row_id_calls_id_fk" FOREIGN KEY ("call_row_id") REFERENCES "public"."calls"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_person_id_persons_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."persons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_subcategory_id_subcategories_id_fk" FOREIGN KEY ("subcategory_id") REFERENCES "public"."subcategories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_appeal_type_id_appeal_types_id_fk" FOREIGN KEY ("appeal_type_id") REFERENCES "public"."appeal_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_classifier_id_classifiers_id_fk" FOREIGN KEY ("classifier_id") REFERENCES "public"."classifiers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_response_method_id_response_methods_id_fk" FOREIGN KEY ("response_method_id") REFERENCES "public"."response_methods"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_executor_organization_id_organizations_id_fk" FOREIGN KEY ("executor_organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_executor_employee_id_users_id_fk" FOREIGN KEY ("executor_employee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appeal_events_appeal_idx" ON "appeal_events" USING btree ("appeal_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "appeals_number_unique" ON "appeals" USING btree ("number");--> statement-breakpoint
CREATE INDEX "appeals_received_idx" ON "appeals" USING btree ("received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_status_idx" ON "appeals" USING btree ("status","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_executor_idx" ON "appeals" USING btree ("executor_organization_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_region_idx" ON "appeals" USING btree ("region_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_subcategory_idx" ON "appeals" USING btree ("subcategory_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_category_idx" ON "appeals" USING btree ("category_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_appeal_type_idx" ON "appeals" USING btree ("appeal_type_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_classifier_idx" ON "appeals" USING btree ("classifier_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_source_idx" ON "appeals" USING btree ("source_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_operator_idx" ON "appeals" USING btree ("operator_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_person_idx" ON "appeals" USING btree ("person_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_phone_idx" ON "appeals" USING btree ("citizen_phone","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_response_method_idx" ON "appeals" USING btree ("response_method_id");--> statement-breakpoint
CREATE INDEX "appeals_executor_employee_idx" ON "appeals" USING btree ("executor_employee_id");--> statement-breakpoint
CREATE INDEX "appeals_call_idx" ON "appeals" USING btree ("call_row_id");--> statement-breakpoint
CREATE INDEX "appeals_overdue_idx" ON "appeals" USING btree ("received_at" DESC NULLS LAST) WHERE "appeals"."work_overdue_at" is not null or "appeals"."close_overdue_at" is not null;--> statement-breakpoint
CREATE INDEX "appeals_open_work_due_idx" ON "appeals" USING btree ("work_due_at") WHERE "appeals"."status" in ('registered', 'assigned') and "appeals"."work_overdue_at" is null;--> statement-breakpoint
CREATE INDEX "appeals_open_close_due_idx" ON "appeals" USING btree ("close_due_at") WHERE "appeals"."status" in ('registered', 'assigned', 'in_work') and "appeals"."close_overdue_at" is null;--> statement-breakpoint
CREATE INDEX "appeals_search_idx" ON "appeals" USING gin ("search");