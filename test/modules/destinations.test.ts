// Issue 51: a destination kind is one registry entry (src/modules/call-routing/destinations.ts): the
// field it names, what of the organization's it must name, its dialplan steps and its problems.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { destinationKinds } from '../../src/db/schema/index.js'
import { DESTINATION_KINDS, destinationColumns, destinationOf, destinationProblem, destinationShapeProblems, destinationSteps, type DestinationContext } from '../../src/modules/call-routing/destinations.js'
import { Destination } from '../../src/modules/call-routing/schemas.js'

const context: DestinationContext = {
  prefix: '101', queues: [{ id: 5, is_default: true }, { id: 6, is_default: false }], recorded: new Set([7]),
  announce: (fields) => `UserEvent(AppealsCall,${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join(',')})`,
}
const examples = {
  queue: { kind: 'queue', queue_id: 6 },
  terminal: { kind: 'terminal', terminal_id: '101002' },
  menu: { kind: 'menu', menu_id: 3 },
  announcement: { kind: 'announcement', prompt_id: 7 },
  hangup: { kind: 'hangup' },
} as const

describe('destinations: one registry entry a kind', () => {
  it('every kind the tables and the API know has its entry, and no other', () => {
    assert.deepEqual(Object.keys(DESTINATION_KINDS).sort(), [...destinationKinds].sort())
    assert.deepEqual([...(Destination.properties.kind as unknown as { enum: string[] }).enum].sort(), [...destinationKinds].sort())
  })

  it('each kind\'s columns under a prefix hold it and read back the same; the other ids are null', () => {
    for (const d of Object.values(examples)) {
      const columns = destinationColumns('dest', d)
      assert.equal(columns.dest_kind, d.kind)
      const back = destinationOf('dest', columns)
      assert.deepEqual(back, { queue_id: null, terminal_id: null, menu_id: null, prompt_id: null, ...d })
      assert.equal(Object.values(columns).filter((v) => v !== null).length, d.kind === 'hangup' ? 1 : 2, `${d.kind}: its kind and its one id`)
    }
  })

  it('a destination names the id of its kind and no other (the API\'s 422 on the field)', () => {
    assert.deepEqual(destinationShapeProblems({ kind: 'queue' }).map(([field, , , type]) => [field, type]), [['queue_id', 'missing']])
    assert.deepEqual(destinationShapeProblems({ kind: 'hangup', menu_id: 3 }).map(([field, , , type]) => [field, type]), [['menu_id', 'value_error']])
    for (const d of Object.values(examples)) assert.deepEqual(destinationShapeProblems(d), [], d.kind)
  })

  it('the dialplan steps of each kind, and the problem of an announcement without a recording', () => {
    const steps = (d: Parameters<typeof destinationSteps>[1]) => destinationSteps(context, d)
    const view = (d: object) => destinationOf('d', destinationColumns('d', d as never))
    assert.deepEqual(steps(view(examples.queue)), ['Goto(org101-q6,s,1)'])
    assert.deepEqual(steps(view({ kind: 'queue', queue_id: 5 })), ['Goto(org101-queue,s,1)'], 'the default queue by its own name')
    assert.deepEqual(steps(view(examples.terminal)), ['UserEvent(AppealsCall,Sent: terminal)', 'Goto(org101-internal,002,1)'])
    assert.deepEqual(steps(view(examples.menu)), ['Goto(org101-menu3,s,1)'])
    assert.deepEqual(steps(view(examples.announcement)), ['UserEvent(AppealsCall,Sent: announced)', 'Playback(appeals/org101/7)', 'Hangup()'])
    assert.deepEqual(steps(view(examples.hangup)), ['UserEvent(AppealsCall,Sent: hangup)', 'Hangup()'])
    assert.equal(destinationProblem(context, view(examples.announcement)), undefined)
    assert.equal(destinationProblem(context, view({ kind: 'announcement', prompt_id: 8 })), 'plays prompt 8, which has no recording')
    for (const kind of ['queue', 'terminal', 'menu', 'hangup'] as const) assert.equal(destinationProblem(context, view(examples[kind])), undefined)
  })
})
