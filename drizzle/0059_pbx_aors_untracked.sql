-- ps_aors is not an input of the PBX's files (the generator writes every AOR from the terminal's own row):
-- a change there marks nothing (test/modules/pbx-triggers.test.ts ties the triggers to what the generator reads)
DROP TRIGGER IF EXISTS "ps_aors_pbx_inserted" ON "ps_aors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "ps_aors_pbx_deleted" ON "ps_aors";--> statement-breakpoint
DROP TRIGGER IF EXISTS "ps_aors_pbx_updated" ON "ps_aors";
