CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "appeal_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"classifier_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"code" varchar(64),
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"appeal_type_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "classifiers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"code" varchar(64) NOT NULL,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "classifiers_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "subcategories" (
	"id" serial PRIMARY KEY NOT NULL,
	"category_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"priority" integer DEFAULT 3 NOT NULL,
	"time_to_work" integer,
	"time_to_close" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "persons" (
	"id" serial PRIMARY KEY NOT NULL,
	"full_name" varchar(255) NOT NULL,
	"iin" varchar(12),
	"phone" varchar(16),
	"email" varchar(254),
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "response_methods" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"name_kk" varchar(255),
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "response_methods_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"name_kk" varchar(255),
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "sources_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "regions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"name_kk" varchar(255),
	"parent_id" integer,
	"phone_code" varchar(5),
	"phone_zone" varchar(3),
	"local_digits" integer,
	"is_regional_center" boolean DEFAULT false NOT NULL,
	"kato" varchar(12),
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "regions_parent_name_unique" UNIQUE NULLS NOT DISTINCT("parent_id","name")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "region_id" integer;--> statement-breakpoint
ALTER TABLE "appeal_types" ADD CONSTRAINT "appeal_types_classifier_id_classifiers_id_fk" FOREIGN KEY ("classifier_id") REFERENCES "public"."classifiers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_appeal_type_id_appeal_types_id_fk" FOREIGN KEY ("appeal_type_id") REFERENCES "public"."appeal_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subcategories" ADD CONSTRAINT "subcategories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regions" ADD CONSTRAINT "regions_parent_id_regions_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."regions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appeal_types_classifier_idx" ON "appeal_types" USING btree ("classifier_id","sort_order");--> statement-breakpoint
CREATE INDEX "categories_appeal_type_idx" ON "categories" USING btree ("appeal_type_id","sort_order");--> statement-breakpoint
CREATE INDEX "subcategories_category_idx" ON "subcategories" USING btree ("category_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "persons_iin_unique" ON "persons" USING btree ("iin");--> statement-breakpoint
CREATE INDEX "persons_phone_idx" ON "persons" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "persons_full_name_trgm" ON "persons" USING gin (lower("full_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "persons_email_trgm" ON "persons" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "persons_iin_trgm" ON "persons" USING gin ("iin" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "persons_phone_trgm" ON "persons" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "regions_parent_idx" ON "regions" USING btree ("parent_id","sort_order");--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organizations_region_idx" ON "organizations" USING btree ("region_id");