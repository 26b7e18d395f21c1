ALTER TABLE "sip_terminals" ADD COLUMN "phone" varchar(7) DEFAULT 'desk' NOT NULL;--> statement-breakpoint
ALTER TABLE "sip_terminals" ADD COLUMN "browser_md5_cred" varchar(32);--> statement-breakpoint
ALTER TABLE "sip_terminals" ADD CONSTRAINT "sip_terminals_phone_check" CHECK ("sip_terminals"."phone" in ('desk', 'browser'));