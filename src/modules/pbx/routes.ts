import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ref } from '../../lib/openapi.js'
import { ConfigPreview, GenerateQuery, GenerateResult, PbxStatus, ReloadQuery, ReloadResult } from './schemas.js'
import type { ConfigType, PbxService } from './service.js'

const tags = ['pbx']

/**
 * PBX routes: open in the interface; in AUTH_MODE=strict they act on or show the whole PBX, so they
 * are an administrator's (a manager manages its own organization's terminals and routing).
 */
const routes: FastifyPluginAsyncTypebox<{ service: PbxService }> = async (app, { service }) => {
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
}

export default routes
