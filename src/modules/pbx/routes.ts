import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { markRoutes } from '../../lib/auth.js'
import { NotFoundError } from '../../lib/errors.js'
import { bearer, ref } from '../../lib/openapi.js'
import { ConfigPreview, GenerateQuery, GenerateResult, OrganizationApplyState, PbxApplyState, PbxStatus, ReloadQuery, ReloadResult } from './schemas.js'
import type { ConfigType, PbxService } from './service.js'

const tags = ['pbx']

/**
 * PBX routes: open in the interface; in AUTH_MODE=strict they act on or show the whole PBX, so they
 * are an administrator's (a manager manages its own organization's terminals and routing).
 */
interface Options { service: PbxService, auto: boolean, applying: () => boolean }

const routes: FastifyPluginAsyncTypebox<Options> = async (app, { service, auto, applying }) => {
  const config = { strict: ['admin'] } as const
  for (const type of ['sip', 'queues', 'extensions'] as ConfigType[]) {
    app.get(`/preview/${type}`, {
      config,
      schema: { tags, operationId: `preview${type[0]!.toUpperCase()}${type.slice(1)}Config`, summary: `The ${type} configuration as it would be written, every secret (password digests) masked`, response: { 200: ref(ConfigPreview) } },
    }, async () => service.preview(type))
  }
  app.post('/generate-configs', {
    config,
    schema: { tags, operationId: 'generateConfigs', summary: 'Validate, write the files atomically with a backup, optionally reload', querystring: GenerateQuery, response: { 200: ref(GenerateResult) } },
  }, async (req) => service.generate({ saveToDisk: req.query.save_to_disk, reloadPbx: req.query.reload_pbx }))
  app.post('/reload', {
    config,
    schema: { tags, operationId: 'reloadPbx', summary: 'Reload Asterisk modules over AMI: all, pjsip, dialplan or queues', querystring: ReloadQuery, response: { 200: ref(ReloadResult) } },
  }, async (req) => service.reload(req.query.module))
  app.get('/status', {
    config,
    schema: { tags, operationId: 'pbxStatus', summary: 'Connection, version, uptime, reload time and current calls (CoreSettings, CoreStatus)', response: { 200: ref(PbxStatus) } },
  }, async () => service.status())
  app.get('/apply-state', {
    config,
    schema: { tags, operationId: 'pbxApplyState', summary: 'Whether the PBX runs what the service holds: applied (when), pending, applying, waiting for Asterisk, what failed, and the organizations refused with why', response: { 200: ref(PbxApplyState) } },
  }, async () => service.applyState(auto, applying()))
}

/** beside an organization's telephony: whether its last edit runs on the PBX (an admin or its managers) */
export const organizationRoutes: FastifyPluginAsyncTypebox<Options> = async (app, { service, auto, applying }) => {
  markRoutes(app, { user: ['admin', 'manager'], organization: 'tenant_id' })
  app.get('/:tenant_id/pbx-state', {
    schema: {
      tags, security: bearer, operationId: 'organizationPbxState', summary: 'Whether the organization\'s telephony as edited runs on the PBX: applied, pending, applying, waiting for Asterisk, or refused with the reason',
      params: Type.Object({ tenant_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }), response: { 200: ref(OrganizationApplyState) },
    },
  }, async (req) => {
    // who may see it is the gate's (an admin, or a manager of this organization)
    const id = req.params.tenant_id
    if (!await service.organizationExists(id)) throw new NotFoundError('Organization')
    return service.organizationApplyState(id, auto, applying())
  })
}

export default routes
