// A destination as the tables hold it (DESIGN 9): under a prefix (`dest`, `closed`, `overflow`...),
// its kind and the id of the one thing it names. The API, the repository and the PBX's files read
// and write it through these two functions only.
import type { DestinationKind } from '../../db/schema/index.js'
import type { Destination, DestinationView } from './schemas.js'

/** a destination's columns under a prefix, as a row holds them */
export type DestinationColumns = Record<string, unknown>

/** the columns of a destination under `prefix` (`dest_kind`, `dest_queue_id`...) */
export function destinationColumns (prefix: string, d: Destination): DestinationColumns {
  return {
    [`${prefix}_kind`]: d.kind,
    [`${prefix}_queue_id`]: d.kind === 'queue' ? d.queue_id : null,
    [`${prefix}_terminal_id`]: d.kind === 'terminal' ? d.terminal_id : null,
    [`${prefix}_menu_id`]: d.kind === 'menu' ? d.menu_id : null,
    [`${prefix}_prompt_id`]: d.kind === 'announcement' ? d.prompt_id : null,
  }
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
