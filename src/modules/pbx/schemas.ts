import { Type } from 'typebox'
import { Nullable, OneOf } from '../../lib/common-schemas.js'

export const ConfigPreview = Type.Object({
  config_type: Type.String(), content: Type.String(), lines_count: Type.Integer(),
}, { $id: 'ConfigPreview' })

/** what a generation came to, beside the English `message`: for a client to say it in its own words */
export const generateOutcomes = ['invalid', 'checked', 'written', 'write_failed', 'written_reloaded', 'reload_failed'] as const
export const GenerateResult = Type.Object({
  success: Type.Boolean(), message: Type.String(), files: Type.Array(Type.String()), backup_path: Nullable(Type.String()), errors: Type.Array(Type.String()),
  outcome: OneOf(generateOutcomes, { description: 'invalid: problems, nothing written; checked: valid, not written (save_to_disk=false); written; write_failed: the previous files in place; written_reloaded; reload_failed: written, the reload failed' }),
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

export const schemas = [ConfigPreview, GenerateResult, ReloadResult, PbxStatus]
