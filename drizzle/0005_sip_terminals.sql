CREATE TABLE "ps_aors" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"max_contacts" integer DEFAULT 1,
	"remove_existing" varchar(3) DEFAULT 'yes'
);
--> statement-breakpoint
CREATE TABLE "ps_auths" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"auth_type" varchar(10) DEFAULT 'md5' NOT NULL,
	"username" varchar(40),
	"md5_cred" varchar(40),
	"realm" varchar(40)
);
--> statement-breakpoint
CREATE TABLE "ps_endpoints" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"transport" varchar(40),
	"aors" varchar(200),
	"auth" varchar(40),
	"context" varchar(40),
	"disallow" varchar(200),
	"allow" varchar(200),
	"direct_media" varchar(3),
	"force_rport" varchar(3),
	"rewrite_contact" varchar(3),
	"rtp_symmetric" varchar(3),
	"language" varchar(40),
	"mailboxes" varchar(40),
	"callerid" varchar(40)
);
--> statement-breakpoint
CREATE TABLE "sip_terminals" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"extension" varchar(3) NOT NULL,
	"name" varchar(255) NOT NULL,
	"outgoing_cli" varchar(20),
	"allow_long_distance" boolean DEFAULT false NOT NULL,
	"cf_unconditional_enabled" boolean DEFAULT false NOT NULL,
	"cf_unconditional_dest" varchar(20),
	"cf_unavailable_enabled" boolean DEFAULT false NOT NULL,
	"cf_unavailable_dest" varchar(20),
	"cf_noanswer_enabled" boolean DEFAULT false NOT NULL,
	"cf_noanswer_dest" varchar(20),
	"cf_noanswer_timeout" integer DEFAULT 20 NOT NULL,
	"cf_busy_enabled" boolean DEFAULT false NOT NULL,
	"cf_busy_dest" varchar(20),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sip_terminals" ADD CONSTRAINT "sip_terminals_id_ps_endpoints_id_fk" FOREIGN KEY ("id") REFERENCES "public"."ps_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sip_terminals" ADD CONSTRAINT "sip_terminals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sip_terminals_organization_idx" ON "sip_terminals" USING btree ("organization_id","extension");