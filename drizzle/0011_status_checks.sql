ALTER TABLE "ext_sync_outbox" ADD CONSTRAINT "ext_sync_outbox_status_check" CHECK ("ext_sync_outbox"."status" in ('pending', 'synced', 'failed', 'disabled'));--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_purpose_check" CHECK ("auth_tokens"."purpose" in ('invite', 'reset'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('admin', 'manager', 'operator'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_user_type_check" CHECK ("users"."user_type" in ('staff', 'platform'));--> statement-breakpoint
ALTER TABLE "ps_aors" ADD CONSTRAINT "ps_aors_remove_existing_check" CHECK ("ps_aors"."remove_existing" in ('yes', 'no'));--> statement-breakpoint
ALTER TABLE "ps_auths" ADD CONSTRAINT "ps_auths_auth_type_check" CHECK ("ps_auths"."auth_type" in ('digest', 'md5', 'userpass'));--> statement-breakpoint
ALTER TABLE "ps_endpoints" ADD CONSTRAINT "ps_endpoints_direct_media_check" CHECK ("ps_endpoints"."direct_media" in ('yes', 'no'));--> statement-breakpoint
ALTER TABLE "ps_endpoints" ADD CONSTRAINT "ps_endpoints_force_rport_check" CHECK ("ps_endpoints"."force_rport" in ('yes', 'no'));--> statement-breakpoint
ALTER TABLE "ps_endpoints" ADD CONSTRAINT "ps_endpoints_rewrite_contact_check" CHECK ("ps_endpoints"."rewrite_contact" in ('yes', 'no'));--> statement-breakpoint
ALTER TABLE "ps_endpoints" ADD CONSTRAINT "ps_endpoints_rtp_symmetric_check" CHECK ("ps_endpoints"."rtp_symmetric" in ('yes', 'no'));--> statement-breakpoint
ALTER TABLE "llm_calls" ADD CONSTRAINT "llm_calls_task_check" CHECK ("llm_calls"."task" in ('complete', 'simple', 'stream', 'summarize', 'translate', 'classify', 'check-response'));--> statement-breakpoint
ALTER TABLE "llm_calls" ADD CONSTRAINT "llm_calls_outcome_check" CHECK ("llm_calls"."outcome" in ('ok', 'error', 'aborted'));--> statement-breakpoint
ALTER TABLE "platform_audit" ADD CONSTRAINT "platform_audit_from_status_check" CHECK ("platform_audit"."from_status" in ('active', 'suspended', 'deleted'));--> statement-breakpoint
ALTER TABLE "platform_audit" ADD CONSTRAINT "platform_audit_to_status_check" CHECK ("platform_audit"."to_status" in ('active', 'suspended', 'deleted'));--> statement-breakpoint
ALTER TABLE "platform_tenants" ADD CONSTRAINT "platform_tenants_status_check" CHECK ("platform_tenants"."status" in ('active', 'suspended', 'deleted'));