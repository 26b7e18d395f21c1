CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"idempotency_key" varchar(200) NOT NULL,
	"channel" varchar(8) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"recipient" varchar(254) NOT NULL,
	"subject" varchar(300),
	"body" text NOT NULL,
	"appeal_id" integer,
	"status" varchar(8) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"provider_id" varchar(200),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "notifications_channel_check" CHECK ("notifications"."channel" in ('email', 'sms')),
	CONSTRAINT "notifications_status_check" CHECK ("notifications"."status" in ('pending', 'sent', 'failed')),
	CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('answer', 'redirect', 'assign', 'overdue'))
);
--> statement-breakpoint
ALTER TABLE "response_methods" ADD COLUMN "channel" varchar(8);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_appeal_id_appeals_id_fk" FOREIGN KEY ("appeal_id") REFERENCES "public"."appeals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_due_idx" ON "notifications" USING btree ("channel","next_attempt_at") WHERE "notifications"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "notifications_status_idx" ON "notifications" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "notifications_appeal_idx" ON "notifications" USING btree ("appeal_id");--> statement-breakpoint
ALTER TABLE "response_methods" ADD CONSTRAINT "response_methods_channel_check" CHECK ("response_methods"."channel" in ('email', 'sms'));--> statement-breakpoint
-- the seeded methods that the service delivers itself (DESIGN 7.4); others are told by the executor
UPDATE "response_methods" SET "channel" = 'sms' WHERE "name" = 'SMS';--> statement-breakpoint
UPDATE "response_methods" SET "channel" = 'email' WHERE "name" = 'Электронная почта';
