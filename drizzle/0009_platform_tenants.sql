CREATE TABLE "platform_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" varchar(64) NOT NULL,
	"actor_address" varchar(64),
	"request_id" varchar(128),
	"action" varchar(16) NOT NULL,
	"tenant_id" varchar(63) NOT NULL,
	"from_status" varchar(16),
	"to_status" varchar(16) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_tenants" (
	"tenant_id" varchar(63) PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"cell_id" varchar(63) NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" varchar(16) DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"suspended_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "platform_audit_at_idx" ON "platform_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "platform_audit_tenant_idx" ON "platform_audit" USING btree ("tenant_id","at");