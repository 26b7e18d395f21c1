ALTER TABLE "ps_auths" ALTER COLUMN "auth_type" SET DEFAULT 'digest';--> statement-breakpoint
ALTER TABLE "ps_auths" ADD COLUMN "password_digest" varchar(1024);--> statement-breakpoint
UPDATE "ps_auths" SET "auth_type" = 'digest' WHERE "auth_type" = 'md5';
