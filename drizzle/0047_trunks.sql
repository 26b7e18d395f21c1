CREATE TABLE "outbound_route_trunks" (
	"route_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"trunk_id" integer NOT NULL,
	CONSTRAINT "outbound_route_trunks_route_id_position_pk" PRIMARY KEY("route_id","position"),
	CONSTRAINT "outbound_route_trunks_once" UNIQUE("route_id","trunk_id")
);
--> statement-breakpoint
CREATE TABLE "outbound_routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"patterns" varchar(32)[] NOT NULL,
	"long_distance" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbound_routes_organization_id_unique" UNIQUE("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "trunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"mode" varchar(12) NOT NULL,
	"host" varchar(253) NOT NULL,
	"port" integer DEFAULT 5060 NOT NULL,
	"transport" varchar(20) DEFAULT 'transport-udp' NOT NULL,
	"username" varchar(64),
	"realm" varchar(253),
	"md5_cred" varchar(32),
	"password_digest" varchar(80),
	"match" varchar(40)[] DEFAULT '{}'::varchar[] NOT NULL,
	"codecs" varchar(200) DEFAULT 'alaw,ulaw' NOT NULL,
	"context" varchar(40) DEFAULT 'appeals-inbound' NOT NULL,
	"number_format" varchar(10) DEFAULT 'e164' NOT NULL,
	"caller_id" varchar(16),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trunks_mode_check" CHECK ("trunks"."mode" in ('registration', 'ip')),
	CONSTRAINT "trunks_transport_check" CHECK ("trunks"."transport" in ('transport-udp', 'transport-tcp')),
	CONSTRAINT "trunks_number_format_check" CHECK ("trunks"."number_format" in ('e164', 'national', 'digits')),
	CONSTRAINT "trunks_port_check" CHECK ("trunks"."port" between 1 and 65535),
	CONSTRAINT "trunks_registration_check" CHECK ("trunks"."mode" <> 'registration' or ("trunks"."username" is not null and "trunks"."realm" is not null and "trunks"."md5_cred" is not null))
);
--> statement-breakpoint
ALTER TABLE "outbound_route_trunks" ADD CONSTRAINT "outbound_route_trunks_route_id_outbound_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."outbound_routes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_route_trunks" ADD CONSTRAINT "outbound_route_trunks_trunk_id_trunks_id_fk" FOREIGN KEY ("trunk_id") REFERENCES "public"."trunks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_routes" ADD CONSTRAINT "outbound_routes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbound_route_trunks_trunk_idx" ON "outbound_route_trunks" USING btree ("trunk_id");--> statement-breakpoint
CREATE INDEX "outbound_routes_organization_idx" ON "outbound_routes" USING btree ("organization_id");