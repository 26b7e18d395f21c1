import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { ServiceUnavailableError } from '../../lib/errors.js'

/** where `npm run console:build` (and `npm start`, when the build is stale) puts the console */
export const CONSOLE_BUILD = fileURLToPath(new URL('../../../web/dist/', import.meta.url))

/**
 * Ant Design writes its styles at run time (<style> elements); everything else comes from this origin.
 * media-src blob:: a prompt's recording is fetched with the token and played from an object URL;
 * connect-src: Asterisk's WebSocket, where the browser phones register (PBX_WEBSOCKET_URL), and no other.
 */
export const contentSecurityPolicy = (websocketUrl?: string) =>
  `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'${websocketUrl ? ` ${new URL(websocketUrl).origin}` : ''}; frame-ancestors 'none'; base-uri 'self'; form-action 'self'`

/**
 * The console (DESIGN 8): the single-page application in web/, built into static files and served
 * under /console/. Any other path under /console/ is a page of the application: it gets index.html.
 * The links of the mails (`PUBLIC_URL/invite`, `PUBLIC_URL/reset-password`) lead to its pages.
 */
const consoleRoutes: FastifyPluginAsync<{ root?: string, timeZone: string, websocketUrl?: string }> = async (app, options) => {
  const root = options.root ?? CONSOLE_BUILD
  const CSP = contentSecurityPolicy(options.websocketUrl)
  const hide = { schema: { hide: true } }
  for (const page of ['invite', 'reset-password']) {
    app.get(`/${page}`, hide, async (req, reply) => {
      const query = req.url.indexOf('?')
      return reply.redirect(`/console/${page}${query === -1 ? '' : req.url.slice(query)}`, 302)
    })
  }
  app.get('/console', hide, async (_req, reply) => reply.redirect('/console/', 301))

  if (!existsSync(`${root}index.html`)) {
    // the same routes as a built console's (docs/access.md lists them), each saying so
    for (const path of ['/console/', '/console/*']) {
      app.get(path, hide, async () => {
        throw new ServiceUnavailableError('The console is not built: run `npm run console:build` (npm start does it when needed)')
      })
    }
    return
  }
  const index = withTimeZone(readFileSync(`${root}index.html`, 'utf8'), options.timeZone)
  const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').header('content-security-policy', CSP)
    .type('text/html; charset=utf-8').send(index)
  await app.register(fastifyStatic, {
    root,
    prefix: '/console/',
    // a route per built file, read once at start; the pages' paths fall through to index.html below
    wildcard: false,
    index: false,
    // the build writes a brotli and a gzip copy of each text file (web/precompress.ts): sent as the browser accepts
    preCompressed: true,
    cacheControl: false,
    schemaHide: true,
    setHeaders: (res, path) => {
      // file names under assets/ carry their content's hash: they never change
      res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache')
      res.setHeader('x-content-type-options', 'nosniff')
      // the same path is sent brotli, gzip or plain by the request's Accept-Encoding: caches must keep them apart
      res.setHeader('vary', 'accept-encoding')
      if (path.endsWith('.html')) res.setHeader('content-security-policy', CSP)
    },
  })
  app.get('/console/', hide, async (_req, reply) => sendIndex(reply))
  app.get('/console/*', hide, async (req, reply) => {
    // a missing asset is a 404, not the application
    if (req.url.startsWith('/console/assets/')) return reply.code(404).send({ detail: 'Not Found' })
    return sendIndex(reply)
  })
}

/** the page names the centre's zone: the console counts its days in it, whatever the browser's zone */
function withTimeZone (page: string, timeZone: string): string {
  // an IANA name holds letters, digits, '/', '_', '+' and '-': nothing to escape in an attribute
  return page.replace(/(<meta name="centre-time-zone" content=")[^"]*(")/, `$1${timeZone}$2`)
}

export default consoleRoutes
