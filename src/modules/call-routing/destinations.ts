// Where a call is sent (DESIGN 9), one registry entry per kind: the id it names (its column under a
// prefix: `dest`, `closed`, `overflow`...), what of the organization's it must name, the routing
// item whose deletion it holds up, the dialplan steps that send the call there, and what would make
// a generated file send it nowhere. The API's validation, the repository, the "still used by"
// refusals and the PBX's files all read a destination through this file; a new kind is an entry here
// (and its column and foreign key in the schema, its choice in the console).
import type { DestinationKind } from '../../db/schema/index.js'
import { internalContext, menuName, promptSound, queueName } from '../../integrations/asterisk/names.js'
import type { Destination, DestinationView } from './schemas.js'

/** a destination's columns under a prefix, as a row holds them */
export type DestinationColumns = Record<string, unknown>

type IdField = 'queue_id' | 'terminal_id' | 'menu_id' | 'prompt_id'
const ID_FIELDS: readonly IdField[] = ['queue_id', 'terminal_id', 'menu_id', 'prompt_id']

/** what a destination's steps may ask of the organization it is written for */
export interface DestinationContext {
  prefix: string
  queues: { id: number, is_default: boolean }[]
  /** the prompts that have a recording */
  recorded: Set<number>
  /** a UserEvent step telling the service something of the call */
  announce: (fields: Record<string, string | number>) => string
}

interface DestinationKindEntry {
  /** the field naming what it sends to (hangup names nothing) */
  idField?: IdField
  /** what of the organization's it names: the set its id is looked for in */
  owned?: 'queue' | 'terminal' | 'menu' | 'prompt'
  /** the dialplan steps that send the call on; the last ends the call or leaves the context */
  steps: (c: DestinationContext, d: DestinationView) => string[]
  /** why a generated file could not send the call there (its problem), if so */
  problem?: (c: DestinationContext, d: DestinationView) => string | undefined
}

export const DESTINATION_KINDS: Record<DestinationKind, DestinationKindEntry> = {
  queue: {
    idField: 'queue_id',
    owned: 'queue',
    steps: (c, d) => [`Goto(${queueName(c.prefix, c.queues.find((q) => q.id === d.queue_id)!)},s,1)`],
  },
  terminal: {
    idField: 'terminal_id',
    owned: 'terminal',
    steps: (c, d) => [c.announce({ Sent: 'terminal' }), `Goto(${internalContext(c.prefix)},${d.terminal_id!.slice(3)},1)`],
  },
  menu: {
    idField: 'menu_id',
    owned: 'menu',
    steps: (c, d) => [`Goto(${menuName(c.prefix, d.menu_id!)},s,1)`],
  },
  announcement: {
    idField: 'prompt_id',
    owned: 'prompt',
    steps: (c, d) => [c.announce({ Sent: 'announced' }), `Playback(${promptSound(c.prefix, d.prompt_id!)})`, 'Hangup()'],
    problem: (c, d) => (c.recorded.has(d.prompt_id!) ? undefined : `plays prompt ${d.prompt_id}, which has no recording`),
  },
  hangup: {
    steps: (c) => [c.announce({ Sent: 'hangup' }), 'Hangup()'],
  },
}

/** the field naming what a destination of this kind sends to */
export const destinationIdField = (kind: DestinationKind): IdField | undefined => DESTINATION_KINDS[kind].idField

/** the id a destination names (undefined for hangup) */
export const destinationTarget = (d: DestinationView | Destination): number | string | undefined => {
  const field = destinationIdField(d.kind)
  return field ? d[field] ?? undefined : undefined
}

/** a destination's shape: the id its kind names, and no other; each as [field, message, input, type] */
export function destinationShapeProblems (d: Destination): [IdField, string, unknown, string][] {
  const wanted = destinationIdField(d.kind)
  const out: [IdField, string, unknown, string][] = []
  if (wanted && (d[wanted] === undefined || d[wanted] === null)) out.push([wanted, `Field required: a ${d.kind} names its ${wanted}`, undefined, 'missing'])
  for (const f of ID_FIELDS) if (f !== wanted && d[f] != null) out.push([f, `A ${d.kind} destination names no ${f}`, d[f], 'value_error'])
  return out
}

/** the dialplan steps that send the call to the destination */
export const destinationSteps = (c: DestinationContext, d: DestinationView): string[] => DESTINATION_KINDS[d.kind].steps(c, d)

/** what would make the destination send the call nowhere in a generated file */
export const destinationProblem = (c: DestinationContext, d: DestinationView): string | undefined => DESTINATION_KINDS[d.kind].problem?.(c, d)

/** the columns of a destination under `prefix` (`dest_kind`, `dest_queue_id`...) */
export function destinationColumns (prefix: string, d: Destination): DestinationColumns {
  const wanted = destinationIdField(d.kind)
  return Object.fromEntries([[`${prefix}_kind`, d.kind], ...ID_FIELDS.map((f) => [`${prefix}_${f}`, f === wanted ? d[f] : null])])
}

/** the destination a row holds under `prefix` */
export function destinationOf (prefix: string, row: DestinationColumns): DestinationView {
  return {
    kind: row[`${prefix}_kind`] as DestinationKind,
    queue_id: row[`${prefix}_queue_id`] as number | null,
    terminal_id: row[`${prefix}_terminal_id`] as string | null,
    menu_id: row[`${prefix}_menu_id`] as number | null,
    prompt_id: row[`${prefix}_prompt_id`] as number | null,
  }
}
