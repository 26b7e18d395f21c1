CREATE TABLE "break_reasons" (
	"code" varchar(40) PRIMARY KEY NOT NULL,
	"name_ru" varchar(60) NOT NULL,
	"name_kk" varchar(60) NOT NULL,
	"max_minutes" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "break_reasons_max_minutes_check" CHECK ("break_reasons"."max_minutes" is null or "break_reasons"."max_minutes" between 1 and 480)
);
--> statement-breakpoint
INSERT INTO "break_reasons" ("code", "name_ru", "name_kk", "max_minutes", "sort_order") VALUES
	('break', 'Перерыв', 'Үзіліс', 15, 0),
	('lunch', 'Обед', 'Түскі ас', 60, 1),
	('training', 'Обучение', 'Оқу', NULL, 2),
	('meeting', 'Совещание', 'Жиналыс', NULL, 3);
