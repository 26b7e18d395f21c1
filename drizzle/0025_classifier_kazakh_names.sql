ALTER TABLE "appeal_types" ADD COLUMN "name_kk" varchar(255);--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "name_kk" varchar(255);--> statement-breakpoint
ALTER TABLE "classifiers" ADD COLUMN "name_kk" varchar(255);--> statement-breakpoint
ALTER TABLE "subcategories" ADD COLUMN "name_kk" varchar(255);--> statement-breakpoint
-- the shipped classifier and appeal types of the law (src/db/seed/index.ts; test/seed.test.ts checks the two agree), where their Russian name is still the shipped one
UPDATE "classifiers" SET "name_kk" = 'Өтініштер жіктеуіші' WHERE "code" = 'DEFAULT' AND "name" = 'Классификатор обращений' AND "name_kk" IS NULL;--> statement-breakpoint
UPDATE "appeal_types" SET "name_kk" = v."name_kk" FROM (VALUES
  ('STATEMENT', 'Заявление', 'Арыз'),
  ('COMPLAINT', 'Жалоба', 'Шағым'),
  ('PROPOSAL', 'Предложение', 'Ұсыныс'),
  ('RESPONSE', 'Отклик', 'Ден қою'),
  ('REQUEST', 'Запрос', 'Сұрау салу'),
  ('REPORT', 'Сообщение', 'Хабарлама')
) AS v("code", "name", "name_kk")
WHERE "appeal_types"."code" = v."code" AND "appeal_types"."name" = v."name" AND "appeal_types"."name_kk" IS NULL
  AND "appeal_types"."classifier_id" = (SELECT "id" FROM "classifiers" WHERE "code" = 'DEFAULT');
