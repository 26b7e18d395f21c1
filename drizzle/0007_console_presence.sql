CREATE TABLE "console_presence" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"connected_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "console_presence" ADD CONSTRAINT "console_presence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "console_presence_seen_idx" ON "console_presence" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "console_presence_user_idx" ON "console_presence" USING btree ("user_id");