import { Type } from 'typebox'
import { Nullable, OneOf } from '../../lib/common-schemas.js'

export const ConfigPreview = Type.Object({
  config_type: Type.String(), content: Type.String(), lines_count: Type.Integer(),
}, { $id: 'ConfigPreview' })

/** what a generation came to, beside the English `message`: for a client to say it in its own words */
export const generateOutcomes = ['invalid', 'checked', 'written', 'partly_written', 'write_failed', 'written_reloaded', 'reload_failed'] as const
export const GenerateResult = Type.Object({
  success: Type.Boolean(), message: Type.String(), files: Type.Array(Type.String()), backup_path: Nullable(Type.String()), errors: Type.Array(Type.String()),
  outcome: OneOf(generateOutcomes, { description: 'invalid: problems, nothing written (save_to_disk=false); checked: valid, not written (save_to_disk=false); written; partly_written: the organizations named in errors kept their last good files, the others were written; write_failed: the previous files in place; written_reloaded; reload_failed: written, the reload failed' }),
}, { $id: 'GenerateResult' })

export const reloadOutcomes = ['reloaded', 'reload_failed', 'not_configured'] as const
export const ReloadResult = Type.Object({
  success: Type.Boolean(), message: Type.String(), output: Type.String(),
  outcome: OneOf(reloadOutcomes, { description: 'not_configured: no AMI to reload through' }),
}, { $id: 'ReloadResult' })

export const PbxStatus = Type.Object({
  connected: Type.Boolean(),
  message: Type.String(),
  asterisk_version: Type.Optional(Nullable(Type.String())),
  uptime_seconds: Type.Optional(Nullable(Type.Integer())),
  last_reload_seconds: Type.Optional(Nullable(Type.Integer())),
  current_calls: Type.Optional(Nullable(Type.Integer())),
}, { $id: 'PbxStatus' })

export const reloadModules = ['all', 'pjsip', 'dialplan', 'queues'] as const
export const GenerateQuery = Type.Object({
  save_to_disk: Type.Boolean({ default: true }),
  reload_pbx: Type.Boolean({ default: false }),
})
export const ReloadQuery = Type.Object({
  module: OneOf(reloadModules, { default: 'all' }),
})

export const applyStates = ['applied', 'pending', 'applying', 'waiting_for_asterisk', 'failed', 'off'] as const
const refusers = ['service', 'asterisk'] as const
const refusedOrganization = Type.Object({
  organization_id: Type.Integer(), prefix: Type.String(), name: Type.String(),
  problem: Type.String({ description: 'why its configuration was refused: its last good files stay on the PBX; refused by Asterisk, the words of its log' }),
  refused_by: OneOf(refusers, { description: 'service: the service found a problem and did not write its files; asterisk: Asterisk read its files and refused part of them (PBX_ASTERISK_LOG), keeping what it ran before' }),
  since: Type.String({ format: 'date-time' }),
})
export const PbxApplyState = Type.Object({
  state: OneOf(applyStates, { description: 'applied: the PBX runs what the service holds; pending: a change waits for its apply (within a second); applying; waiting_for_asterisk: written, the reload waits for Asterisk to answer; failed: the last apply failed (error); off: changes are applied only by generate-configs (no AMI, or PBX_APPLY=off)' }),
  applied_at: Nullable(Type.String({ format: 'date-time' })),
  pending_reloads: Type.Array(Type.String()),
  error: Nullable(Type.String({ description: 'why the last apply failed: a write, or Asterisk not answering' })),
  error_at: Nullable(Type.String({ format: 'date-time' })),
  refused: Type.Array(refusedOrganization, { description: 'organizations whose configuration Asterisk was not given (at most 200)' }),
  trunks_problem: Nullable(Type.String({ description: 'why the trunks\' file kept its last good version' })),
  asterisk_problem: Nullable(Type.String({ description: 'what Asterisk refused in the main files or the trunks\' file at its last reload, in its log\'s words (PBX_ASTERISK_LOG)' })),
}, { $id: 'PbxApplyState' })
export const OrganizationApplyState = Type.Object({
  state: OneOf([...applyStates, 'refused'] as const, { description: 'as the PBX\'s, for this organization; refused: its configuration has a problem, its last good one stays' }),
  applied_at: Nullable(Type.String({ format: 'date-time' })),
  problem: Nullable(Type.String({ description: 'why its configuration was refused; by Asterisk, the words of its log' })),
  refused_by: Nullable(OneOf(refusers)),
  error: Nullable(Type.String()),
}, { $id: 'OrganizationApplyState' })

export const schemas = [ConfigPreview, GenerateResult, ReloadResult, PbxStatus, PbxApplyState, OrganizationApplyState]
