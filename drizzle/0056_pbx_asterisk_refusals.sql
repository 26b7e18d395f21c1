CREATE TABLE "pbx_asterisk_refusals" (
	"module" varchar(16) NOT NULL,
	"scope" integer NOT NULL,
	"message" text NOT NULL,
	"logged_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pbx_asterisk_refusals_module_scope_pk" PRIMARY KEY("module","scope")
);
