CREATE TABLE "llm_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"task" varchar(32) NOT NULL,
	"provider" varchar(64) NOT NULL,
	"model" varchar(255) NOT NULL,
	"prompt_tokens" integer DEFAULT 0 NOT NULL,
	"completion_tokens" integer DEFAULT 0 NOT NULL,
	"total_tokens" integer DEFAULT 0 NOT NULL,
	"latency_ms" integer NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"outcome" varchar(16) NOT NULL,
	"error" text,
	"redacted" boolean DEFAULT false NOT NULL,
	"user_id" integer,
	"prompt" jsonb,
	"answer" text
);
--> statement-breakpoint
ALTER TABLE "llm_calls" ADD CONSTRAINT "llm_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "llm_calls_created_idx" ON "llm_calls" USING btree ("created_at");