-- what a route's foreign keys name: a destination or a queue member stays within its terminal's tenant
ALTER TABLE "sip_terminals" ADD CONSTRAINT "sip_terminals_organization_id_unique" UNIQUE("organization_id","id");--> statement-breakpoint
CREATE TABLE "inbound_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"number" varchar(20) NOT NULL,
	"name" varchar(100) NOT NULL,
	"schedule_id" integer,
	"dest_kind" varchar(12) DEFAULT 'hangup' NOT NULL,
	"dest_queue_id" integer,
	"dest_terminal_id" varchar(40),
	"dest_menu_id" integer,
	"dest_prompt_id" integer,
	"closed_kind" varchar(12) DEFAULT 'hangup' NOT NULL,
	"closed_queue_id" integer,
	"closed_terminal_id" varchar(40),
	"closed_menu_id" integer,
	"closed_prompt_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_lines_number_unique" UNIQUE("number"),
	CONSTRAINT "inbound_lines_dest_check" CHECK (num_nonnulls("inbound_lines"."dest_queue_id", "inbound_lines"."dest_terminal_id", "inbound_lines"."dest_menu_id", "inbound_lines"."dest_prompt_id") = ("inbound_lines"."dest_kind" <> 'hangup')::int
      and case "inbound_lines"."dest_kind" when 'queue' then "inbound_lines"."dest_queue_id" is not null when 'terminal' then "inbound_lines"."dest_terminal_id" is not null
      when 'menu' then "inbound_lines"."dest_menu_id" is not null when 'announcement' then "inbound_lines"."dest_prompt_id" is not null else true end),
	CONSTRAINT "inbound_lines_dest_kind_check" CHECK ("inbound_lines"."dest_kind" in ('queue', 'terminal', 'menu', 'announcement', 'hangup')),
	CONSTRAINT "inbound_lines_closed_check" CHECK (num_nonnulls("inbound_lines"."closed_queue_id", "inbound_lines"."closed_terminal_id", "inbound_lines"."closed_menu_id", "inbound_lines"."closed_prompt_id") = ("inbound_lines"."closed_kind" <> 'hangup')::int
      and case "inbound_lines"."closed_kind" when 'queue' then "inbound_lines"."closed_queue_id" is not null when 'terminal' then "inbound_lines"."closed_terminal_id" is not null
      when 'menu' then "inbound_lines"."closed_menu_id" is not null when 'announcement' then "inbound_lines"."closed_prompt_id" is not null else true end),
	CONSTRAINT "inbound_lines_closed_kind_check" CHECK ("inbound_lines"."closed_kind" in ('queue', 'terminal', 'menu', 'announcement', 'hangup'))
);
--> statement-breakpoint
CREATE TABLE "menu_options" (
	"organization_id" integer NOT NULL,
	"menu_id" integer NOT NULL,
	"digit" varchar(1) NOT NULL,
	"language" varchar(2),
	"dest_kind" varchar(12) DEFAULT 'hangup' NOT NULL,
	"dest_queue_id" integer,
	"dest_terminal_id" varchar(40),
	"dest_menu_id" integer,
	"dest_prompt_id" integer,
	CONSTRAINT "menu_options_menu_id_digit_pk" PRIMARY KEY("menu_id","digit"),
	CONSTRAINT "menu_options_digit_check" CHECK ("menu_options"."digit" ~ '^[0-9*#]$'),
	CONSTRAINT "menu_options_language_check" CHECK ("menu_options"."language" in ('ru', 'kk')),
	CONSTRAINT "menu_options_dest_check" CHECK (num_nonnulls("menu_options"."dest_queue_id", "menu_options"."dest_terminal_id", "menu_options"."dest_menu_id", "menu_options"."dest_prompt_id") = ("menu_options"."dest_kind" <> 'hangup')::int
      and case "menu_options"."dest_kind" when 'queue' then "menu_options"."dest_queue_id" is not null when 'terminal' then "menu_options"."dest_terminal_id" is not null
      when 'menu' then "menu_options"."dest_menu_id" is not null when 'announcement' then "menu_options"."dest_prompt_id" is not null else true end),
	CONSTRAINT "menu_options_dest_kind_check" CHECK ("menu_options"."dest_kind" in ('queue', 'terminal', 'menu', 'announcement', 'hangup'))
);
--> statement-breakpoint
CREATE TABLE "menus" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"prompt_id" integer,
	"timeout" integer DEFAULT 5 NOT NULL,
	"attempts" integer DEFAULT 2 NOT NULL,
	"timeout_kind" varchar(12) DEFAULT 'hangup' NOT NULL,
	"timeout_queue_id" integer,
	"timeout_terminal_id" varchar(40),
	"timeout_menu_id" integer,
	"timeout_prompt_id" integer,
	"invalid_kind" varchar(12) DEFAULT 'hangup' NOT NULL,
	"invalid_queue_id" integer,
	"invalid_terminal_id" varchar(40),
	"invalid_menu_id" integer,
	"invalid_prompt_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "menus_organization_id_unique" UNIQUE("organization_id","id"),
	CONSTRAINT "menus_timeout_check" CHECK (num_nonnulls("menus"."timeout_queue_id", "menus"."timeout_terminal_id", "menus"."timeout_menu_id", "menus"."timeout_prompt_id") = ("menus"."timeout_kind" <> 'hangup')::int
      and case "menus"."timeout_kind" when 'queue' then "menus"."timeout_queue_id" is not null when 'terminal' then "menus"."timeout_terminal_id" is not null
      when 'menu' then "menus"."timeout_menu_id" is not null when 'announcement' then "menus"."timeout_prompt_id" is not null else true end),
	CONSTRAINT "menus_timeout_kind_check" CHECK ("menus"."timeout_kind" in ('queue', 'terminal', 'menu', 'announcement', 'hangup')),
	CONSTRAINT "menus_invalid_check" CHECK (num_nonnulls("menus"."invalid_queue_id", "menus"."invalid_terminal_id", "menus"."invalid_menu_id", "menus"."invalid_prompt_id") = ("menus"."invalid_kind" <> 'hangup')::int
      and case "menus"."invalid_kind" when 'queue' then "menus"."invalid_queue_id" is not null when 'terminal' then "menus"."invalid_terminal_id" is not null
      when 'menu' then "menus"."invalid_menu_id" is not null when 'announcement' then "menus"."invalid_prompt_id" is not null else true end),
	CONSTRAINT "menus_invalid_kind_check" CHECK ("menus"."invalid_kind" in ('queue', 'terminal', 'menu', 'announcement', 'hangup'))
);
--> statement-breakpoint
CREATE TABLE "prompt_recordings" (
	"prompt_id" integer NOT NULL,
	"language" varchar(2) NOT NULL,
	"sample_rate" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"size_bytes" integer NOT NULL,
	"wav" "bytea" NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prompt_recordings_prompt_id_language_pk" PRIMARY KEY("prompt_id","language"),
	CONSTRAINT "prompt_recordings_language_check" CHECK ("prompt_recordings"."language" in ('ru', 'kk'))
);
--> statement-breakpoint
CREATE TABLE "prompts" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prompts_organization_id_unique" UNIQUE("organization_id","id")
);
--> statement-breakpoint
CREATE TABLE "queue_members" (
	"organization_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"terminal_id" varchar(40) NOT NULL,
	"penalty" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "queue_members_queue_id_terminal_id_pk" PRIMARY KEY("queue_id","terminal_id")
);
--> statement-breakpoint
CREATE TABLE "queues" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"all_terminals" boolean DEFAULT false NOT NULL,
	"strategy" varchar(12) DEFAULT 'rrmemory' NOT NULL,
	"ring_timeout" integer DEFAULT 15 NOT NULL,
	"retry" integer DEFAULT 5 NOT NULL,
	"wrapup_time" integer DEFAULT 5 NOT NULL,
	"max_callers" integer DEFAULT 0 NOT NULL,
	"service_level" integer DEFAULT 20 NOT NULL,
	"music_class" varchar(40) DEFAULT 'default' NOT NULL,
	"announce_position" boolean DEFAULT false NOT NULL,
	"announce_holdtime" boolean DEFAULT false NOT NULL,
	"periodic_prompt_id" integer,
	"periodic_announce_seconds" integer DEFAULT 60 NOT NULL,
	"max_wait" integer,
	"overflow_kind" varchar(12) DEFAULT 'hangup' NOT NULL,
	"overflow_queue_id" integer,
	"overflow_terminal_id" varchar(40),
	"overflow_menu_id" integer,
	"overflow_prompt_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queues_organization_id_unique" UNIQUE("organization_id","id"),
	CONSTRAINT "queues_strategy_check" CHECK ("queues"."strategy" in ('ringall', 'leastrecent', 'fewestcalls', 'random', 'rrmemory', 'rrordered', 'linear', 'wrandom')),
	CONSTRAINT "queues_overflow_check" CHECK (num_nonnulls("queues"."overflow_queue_id", "queues"."overflow_terminal_id", "queues"."overflow_menu_id", "queues"."overflow_prompt_id") = ("queues"."overflow_kind" <> 'hangup')::int
      and case "queues"."overflow_kind" when 'queue' then "queues"."overflow_queue_id" is not null when 'terminal' then "queues"."overflow_terminal_id" is not null
      when 'menu' then "queues"."overflow_menu_id" is not null when 'announcement' then "queues"."overflow_prompt_id" is not null else true end),
	CONSTRAINT "queues_overflow_kind_check" CHECK ("queues"."overflow_kind" in ('queue', 'terminal', 'menu', 'announcement', 'hangup'))
);
--> statement-breakpoint
CREATE TABLE "schedule_hours" (
	"schedule_id" integer NOT NULL,
	"weekday" smallint NOT NULL,
	"opens" time NOT NULL,
	"closes" time NOT NULL,
	CONSTRAINT "schedule_hours_schedule_id_weekday_opens_pk" PRIMARY KEY("schedule_id","weekday","opens"),
	CONSTRAINT "schedule_hours_weekday_check" CHECK ("schedule_hours"."weekday" between 1 and 7),
	CONSTRAINT "schedule_hours_order_check" CHECK ("schedule_hours"."opens" < "schedule_hours"."closes")
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" varchar(100) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedules_organization_id_unique" UNIQUE("organization_id","id"),
	CONSTRAINT "schedules_kind_check" CHECK ("schedules"."kind" in ('calendar', 'always', 'weekly'))
);
--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_schedule_fk" FOREIGN KEY ("organization_id","schedule_id") REFERENCES "public"."schedules"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_dest_queue_fk" FOREIGN KEY ("organization_id","dest_queue_id") REFERENCES "public"."queues"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_dest_terminal_fk" FOREIGN KEY ("organization_id","dest_terminal_id") REFERENCES "public"."sip_terminals"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_dest_menu_fk" FOREIGN KEY ("organization_id","dest_menu_id") REFERENCES "public"."menus"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_dest_prompt_fk" FOREIGN KEY ("organization_id","dest_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_closed_queue_fk" FOREIGN KEY ("organization_id","closed_queue_id") REFERENCES "public"."queues"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_closed_terminal_fk" FOREIGN KEY ("organization_id","closed_terminal_id") REFERENCES "public"."sip_terminals"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_closed_menu_fk" FOREIGN KEY ("organization_id","closed_menu_id") REFERENCES "public"."menus"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_lines" ADD CONSTRAINT "inbound_lines_closed_prompt_fk" FOREIGN KEY ("organization_id","closed_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_options" ADD CONSTRAINT "menu_options_menu_fk" FOREIGN KEY ("organization_id","menu_id") REFERENCES "public"."menus"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_options" ADD CONSTRAINT "menu_options_dest_queue_fk" FOREIGN KEY ("organization_id","dest_queue_id") REFERENCES "public"."queues"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_options" ADD CONSTRAINT "menu_options_dest_terminal_fk" FOREIGN KEY ("organization_id","dest_terminal_id") REFERENCES "public"."sip_terminals"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_options" ADD CONSTRAINT "menu_options_dest_menu_fk" FOREIGN KEY ("organization_id","dest_menu_id") REFERENCES "public"."menus"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menu_options" ADD CONSTRAINT "menu_options_dest_prompt_fk" FOREIGN KEY ("organization_id","dest_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_prompt_fk" FOREIGN KEY ("organization_id","prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_timeout_queue_fk" FOREIGN KEY ("organization_id","timeout_queue_id") REFERENCES "public"."queues"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_timeout_terminal_fk" FOREIGN KEY ("organization_id","timeout_terminal_id") REFERENCES "public"."sip_terminals"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_timeout_menu_fk" FOREIGN KEY ("organization_id","timeout_menu_id") REFERENCES "public"."menus"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_timeout_prompt_fk" FOREIGN KEY ("organization_id","timeout_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_invalid_queue_fk" FOREIGN KEY ("organization_id","invalid_queue_id") REFERENCES "public"."queues"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_invalid_terminal_fk" FOREIGN KEY ("organization_id","invalid_terminal_id") REFERENCES "public"."sip_terminals"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_invalid_menu_fk" FOREIGN KEY ("organization_id","invalid_menu_id") REFERENCES "public"."menus"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_invalid_prompt_fk" FOREIGN KEY ("organization_id","invalid_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_recordings" ADD CONSTRAINT "prompt_recordings_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_members" ADD CONSTRAINT "queue_members_queue_fk" FOREIGN KEY ("organization_id","queue_id") REFERENCES "public"."queues"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_members" ADD CONSTRAINT "queue_members_terminal_fk" FOREIGN KEY ("organization_id","terminal_id") REFERENCES "public"."sip_terminals"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_periodic_prompt_fk" FOREIGN KEY ("organization_id","periodic_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_overflow_queue_fk" FOREIGN KEY ("organization_id","overflow_queue_id") REFERENCES "public"."queues"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_overflow_terminal_fk" FOREIGN KEY ("organization_id","overflow_terminal_id") REFERENCES "public"."sip_terminals"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_overflow_menu_fk" FOREIGN KEY ("organization_id","overflow_menu_id") REFERENCES "public"."menus"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_overflow_prompt_fk" FOREIGN KEY ("organization_id","overflow_prompt_id") REFERENCES "public"."prompts"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_hours" ADD CONSTRAINT "schedule_hours_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_lines_organization_idx" ON "inbound_lines" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "menus_organization_idx" ON "menus" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "queue_members_terminal_idx" ON "queue_members" USING btree ("terminal_id");--> statement-breakpoint
CREATE INDEX "queues_organization_idx" ON "queues" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "queues_default_unique" ON "queues" USING btree ("organization_id") WHERE "queues"."is_default";--> statement-breakpoint
-- the queue each organization had in the generated queues.conf (`org<prefix>-queue`, every terminal a member) becomes its default queue
INSERT INTO "queues" ("organization_id", "name", "is_default", "all_terminals", "ring_timeout", "retry", "wrapup_time")
  SELECT "id", 'Очередь организации', true, true, 20, 5, 5 FROM "organizations";
