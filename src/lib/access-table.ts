// The table of docs/access.md: who may call each route in each AUTH_MODE, read from the routes' own
// marks through the same function the auth plugin enforces (requirementOf).
import type { AuthMode } from '../config.js'
import { requirementOf, type MarkedRoute, type Requirement } from './auth.js'

/** a requirement in the table's words */
export function requirementText (required: Requirement): string {
  switch (required.kind) {
    case 'open': return 'open'
    case 'own_token': return required.who
    case 'service': return required.platformAdmins ? 'service token or platform admin' : 'service token'
    case 'user': {
      if (required.platform) return 'platform admin'
      const own = required.organization
      if (required.admits === true) return own === undefined ? 'user token' : `admin, user token of \`:${own}\``
      return required.admits.map((role) => own === undefined || role === 'admin' ? role : `${role} of \`:${own}\``).join(', ')
    }
  }
}

/** one mode's cell: with SERVICE_TOKEN set and without it, when they differ */
function cell (route: MarkedRoute, authMode: AuthMode): string {
  const withToken = requirementText(requirementOf(route.marks, route.method, { authMode, serviceToken: true }))
  const without = requirementText(requirementOf(route.marks, route.method, { authMode, serviceToken: false }))
  return withToken === without ? withToken : `${withToken}; without SERVICE_TOKEN: ${without}`
}

/** the Markdown table, a row per route and method, in path order (the built files under their folder's `*` row) */
export function accessTable (routes: MarkedRoute[]): string {
  const rows = routes
    .filter((r) => r.method !== 'OPTIONS' && !r.staticFile)
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method))
    .map((r) => {
      const strict = cell(r, 'strict')
      const open = cell(r, 'interface')
      return `| ${r.method} | \`${r.url}\` | ${strict === open ? strict : `**${strict}**`} | ${open} |`
    })
  return ['| Method | Path | `strict` (the default) | `interface` |', '|---|---|---|---|', ...[...new Set(rows)]].join('\n')
}
