import type { paths } from './schema'

// Every query key of the console, in one place: a key's prefix is what a change reads again
// (`invalidateQueries` matches by prefix), so the tree below is also the map of what follows what.
// An administration change reads its own list again and `references` (the desk's and the filters' lists).

type AppealQuery = NonNullable<paths['/api/appeals']['get']['parameters']['query']>

export const keys = {
  profile: ['profile'],
  /** what the register is to the signed-in user (centre or executor), per user: another may sign in in the same tab */
  workplace: (userId: number) => ['workplace', userId],
  invite: (token: string) => ['invite', token],
  references: {
    all: ['references'],
    sources: ['references', 'sources'],
    responseMethods: ['references', 'response-methods'],
    regionTree: ['references', 'regions-tree'],
    regionsAll: ['references', 'regions-all'],
    organizations: ['references', 'organizations'],
    subcategories: ['references', 'subcategories'],
    classifierTrees: ['references', 'classifier-trees'],
    kazakhNames: (list: string) => ['references', 'kazakh-names', list],
    /** the administration's lists of sources and response methods, inactive items too */
    editable: (list: string) => ['references', list, 'all'],
  },
  appeals: {
    all: ['appeals'],
    list: (filters: AppealQuery, cursor?: string) => ['appeals', 'list', filters, cursor],
    search: (q: string) => ['appeals', 'search', q],
    inbox: (state: string, organizationId?: number, cursor?: string) => ['appeals', 'inbox', state, organizationId, cursor],
    one: (id: number) => ['appeals', 'one', id],
    transcript: (id: number) => ['appeals', 'transcript', id],
    ofCaller: (query: { person_id?: number, phone?: string }) => ['appeals', 'caller', query],
    statsOfDay: (day: string) => ['appeals', 'stats', 'today', day],
    stats: (from: string, to: string, level: string) => ['appeals', 'stats', from, to, level],
  },
  persons: { search: (q: string) => ['persons', q] },
  /** the line's calls as kept, the review list of low scores, and each call's recorded legs */
  lineCalls: {
    all: ['line-calls'],
    list: (page: number, outcome?: string) => ['line-calls', 'list', page, outcome],
    reviews: (page: number) => ['line-calls', 'reviews', page],
    recordings: (linkedid: string) => ['line-calls', 'recordings', linkedid],
    usage: ['line-calls', 'recordings-usage'],
    transcript: (linkedid: string) => ['line-calls', 'transcript', linkedid],
  },
  /** a recording's sound, fetched once: apart from the calls, whose review reads them again */
  recordingSound: (id: number) => ['recording-sound', id],
  agent: { me: ['agent', 'me'], reasons: ['agent', 'break-reasons'], phones: ['agent', 'phones'] },
  /** lines closed at the switch: an organization's lines, a line's history, the board's closed lines */
  lineSwitches: {
    all: ['line-switches'],
    of: (tenant: number) => ['line-switches', 'of', tenant],
    history: (tenant: number, line: number) => ['line-switches', 'history', tenant, line],
    closed: ['line-switches', 'closed'],
  },
  placedCalls: {
    ofAppeal: (appealId: number) => ['placed-calls', 'appeal', appealId],
    transferQueues: ['placed-calls', 'transfer-queues'],
  },
  board: {
    operators: ['board', 'operators'],
    calls: ['board', 'calls'],
    line: ['board', 'line'],
    llmUsage: (from: string, to: string) => ['board', 'llm-usage', from, to],
  },
  admin: {
    all: ['admin'],
    calendar: { all: ['admin', 'calendar'], year: (year: number) => ['admin', 'calendar', year] },
    classifiers: { all: ['admin', 'classifiers'], tree: ['admin', 'classifiers', 'tree'] },
    employees: { all: ['admin', 'employees'], list: (q: string) => ['admin', 'employees', 'list', q], ofOrganization: (id: number) => ['admin', 'employees', 'of', id] },
    endpoints: { all: ['admin', 'endpoints'], list: (tenant: number) => ['admin', 'endpoints', tenant], status: (tenant: number) => ['admin', 'endpoints', 'status', tenant], phone: (tenant: number) => ['admin', 'endpoints', 'phone', tenant] },
    notifications: { all: ['admin', 'notifications'], list: (status?: string, channel?: string) => ['admin', 'notifications', status, channel] },
    organizations: {
      all: ['admin', 'organizations'],
      list: (showInactive: boolean) => ['admin', 'organizations', 'list', showInactive],
      detail: (id: number) => ['admin', 'organizations', 'detail', id],
      notifications: (id: number) => ['admin', 'organizations', 'notifications', id],
      groups: ['admin', 'organizations', 'groups'],
      telephony: ['admin', 'organizations', 'telephony'],
    },
    persons: { all: ['admin', 'persons'], list: (q: string, withInactive: boolean) => ['admin', 'persons', q, withInactive] },
    /** the PBX's state and files, and the providers' trunks in them (a trunk's change shows in the preview) */
    pbx: {
      all: ['admin', 'pbx'], status: ['admin', 'pbx', 'status'], preview: (kind: string) => ['admin', 'pbx', 'preview', kind],
      trunks: ['admin', 'pbx', 'trunks'], trunksStatus: ['admin', 'pbx', 'trunks-status'],
      apply: ['admin', 'pbx', 'apply'], applyOf: (tenant: number) => ['admin', 'pbx', 'apply', tenant],
    },
    regions: { all: ['admin', 'regions'] },
    routing: {
      all: ['admin', 'routing'],
      of: (tenant: number, what: 'queues' | 'lines' | 'menus' | 'schedules' | 'prompts' | 'outbound-routes') => ['admin', 'routing', tenant, what],
      recording: (tenant: number, prompt: number, language: string, uploadedAt: string) => ['admin', 'routing', tenant, 'recording', prompt, language, uploadedAt],
    },
    tenants: { all: ['admin', 'tenants'], list: (status?: string) => ['admin', 'tenants', status] },
  },
} as const
