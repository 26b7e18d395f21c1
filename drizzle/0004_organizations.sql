CREATE TABLE "ext_sync_outbox" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"payload" jsonb NOT NULL,
	"status" varchar(16) NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"synced_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"partner_uuid" uuid,
	"call_local" boolean DEFAULT true NOT NULL,
	"call_longdistance" boolean DEFAULT false NOT NULL,
	"call_mobile" boolean DEFAULT false NOT NULL,
	"cli_route_id" integer,
	"sms_enabled" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_settings_partner_uuid_unique" UNIQUE("partner_uuid")
);
--> statement-breakpoint
CREATE TABLE "organization_group_links" (
	"organization_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	CONSTRAINT "organization_group_links_organization_id_group_id_pk" PRIMARY KEY("organization_id","group_id")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "modules" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "max_queues" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "max_operators" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_group_links" ADD CONSTRAINT "organization_group_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_group_links" ADD CONSTRAINT "organization_group_links_group_id_organization_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."organization_groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ext_sync_outbox_due_idx" ON "ext_sync_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "organization_group_links_group_idx" ON "organization_group_links" USING btree ("group_id");