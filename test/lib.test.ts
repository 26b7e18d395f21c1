import assert from 'node:assert/strict'
import { describe, it, mock } from 'node:test'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lockDataDir } from '../src/db/data-dir-lock.js'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createGroupCommit } from '../src/lib/group-commit.js'
import { createBurst } from '../src/lib/bursts.js'
import { textFrame } from '../src/lib/websockets.js'
import WebSocket, { WebSocketServer } from 'ws'
import { iinProblem } from '../src/lib/iin.js'
import { normalizeKzPhone } from '../src/lib/phone.js'
import { runProgram } from '../src/lib/child-process.js'
import { appealExecutorScope, canSeeAppeal, type AppealViewer } from '../src/lib/access.js'

describe('IIN', () => {
  it('accepts the valid vectors of DESIGN 5.2 and refuses the invalid one', () => {
    assert.equal(iinProblem('061211600012'), undefined)
    assert.equal(iinProblem('791028302728'), undefined)
    assert.match(iinProblem('821214240092')!, /check digit/)
  })
  it('refuses wrong lengths, letters, impossible dates and century digits', () => {
    assert.match(iinProblem('06121160001')!, /12 digits/)
    assert.match(iinProblem('06121160001a')!, /12 digits/)
    assert.match(iinProblem('061311600012')!, /birth date/)  // month 13
    assert.match(iinProblem('060230600012')!, /birth date/)  // 30 February
    assert.match(iinProblem('061211700012')!, /birth date/)  // century digit 7
  })
})

describe('Kazakhstan phone numbers', () => {
  it('normalises the usual spellings to +7XXXXXXXXXX', () => {
    for (const [input, expected] of [
      ['8 (7172) 55-44-33', '+77172554433'],
      ['+7 701 123 45 67', '+77011234567'],
      ['87011234567', '+77011234567'],
      ['77011234567', '+77011234567'],
      ['7011234567', '+77011234567'],
      ['+7(727)2-50-50-50', '+77272505050'],
    ]) assert.equal(normalizeKzPhone(input!), expected, input)
  })
  it('refuses what is not a Kazakhstan number', () => {
    for (const input of ['12345', '+1 202 555 0100', '+8 701 123 45 67', 'phone', '8701123456789', '']) {
      assert.equal(normalizeKzPhone(input), undefined, input)
    }
  })
})

describe('the embedded database lock (DATA_DIR/service.pid)', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'appeals-lock-'))
  const ownStart = () => readFileSync(`/proc/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]

  it('is refused while its owner runs, and released on close', () => {
    const d = dir()
    const release = lockDataDir(d)
    assert.throws(() => lockDataDir(d), /in use by process/)
    release()
    lockDataDir(d)()
  })

  it('left by a killed process: taken over, also when a restarted container gave this process the same pid', () => {
    const d = dir()
    writeFileSync(join(d, 'service.pid'), '999999999 12345')
    lockDataDir(d)()
    // our own pid with another start time: the pid was reused, the owner is gone
    writeFileSync(join(d, 'service.pid'), `${process.pid} ${Number(ownStart()) - 1}`)
    lockDataDir(d)()
    // a lock of the old format (pid only) of a running process still holds
    writeFileSync(join(d, 'service.pid'), String(process.pid))
    assert.throws(() => lockDataDir(d), /in use/)
  })
})

describe('group commit', () => {
  it('what comes while a batch is written goes in the next batch, in order, each item with its own answer', async () => {
    const batches: number[][] = []
    let release: () => void = () => {}
    const commit = createGroupCommit<number, number>(async (items) => {
      batches.push(items)
      if (batches.length === 1) await new Promise<void>((resolve) => { release = resolve })
      return items.map((n) => n % 5 === 0 ? { error: new Error(`refused ${n}`) } : { value: n * 10 })
    }, { maxItems: 100 })
    const answer = (n: number) => commit.submit(n).then((v) => v, (e: Error) => e.message)
    const answers = [answer(1)]
    await new Promise((resolve) => setTimeout(resolve, 5)) // the first batch is being written
    for (let n = 2; n <= 12; n++) answers.push(answer(n))
    release()
    assert.deepEqual(await Promise.all(answers), [10, 20, 30, 40, 'refused 5', 60, 70, 80, 90, 'refused 10', 110, 120])
    assert.deepEqual(batches, [[1], [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]])
  })

  it('batches are bounded by count and by weight; a heavier item goes alone; a writer that throws fails its batch only', async () => {
    const batches: string[][] = []
    const commit = createGroupCommit<string, string>(async (items) => {
      batches.push(items)
      if (items.includes('boom')) throw new Error('writer failed')
      return items.map((value) => ({ value }))
    }, { maxItems: 3, maxWeight: 10, weight: (s) => s.length })
    const items = ['a', 'bb', 'ccc', 'dddd', 'eeeeee', 'ffffffffffff', 'g', 'boom', 'h']
    const answers = await Promise.all(items.map((item) => commit.submit(item).catch((e: Error) => e.message)))
    assert.deepEqual(batches, [['a', 'bb', 'ccc'], ['dddd', 'eeeeee'], ['ffffffffffff'], ['g', 'boom', 'h']])
    assert.deepEqual(answers, ['a', 'bb', 'ccc', 'dddd', 'eeeeee', 'ffffffffffff', 'writer failed', 'writer failed', 'writer failed'])
  })
})

describe('bursts (live events to consoles)', () => {
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  const tick = () => new Promise((resolve) => setImmediate(resolve))

  it('the items of one burst leave in one write; those that follow within the interval wait and leave together; a quiet source\'s item leaves at once', async () => {
    // the interval on a clock of the test's own: the same whatever the machine's load
    let now = 1000
    mock.timers.enable({ apis: ['setTimeout'] })
    try {
      const writes: string[][] = []
      const burst = createBurst((items: string[]) => { writes.push(items) }, (item) => item.length, () => now)
      const nextTick = () => new Promise((resolve) => process.nextTick(resolve))
      burst.push('1'); burst.push('2'); burst.push('3')
      await nextTick()
      assert.deepEqual(writes, [['1', '2', '3']], 'a quiet source\'s burst leaves on the next tick')
      now += 5
      burst.push('4')
      now += 5
      burst.push('5')
      await nextTick()
      assert.deepEqual(writes.length, 1, 'within 16 ms of the last write: they wait')
      // the timer set at '4' (11 ms to the interval's end) runs
      now += 6
      mock.timers.tick(11)
      assert.deepEqual(writes, [['1', '2', '3'], ['4', '5']], 'and leave together when the interval is over')
      // the last write is over 16 ms old now: the next item leaves on the next tick, before any timer
      now += 20
      burst.push('6')
      await nextTick()
      assert.deepEqual(writes[2], ['6'], 'a quiet source does not wait for the interval')
    } finally {
      mock.timers.reset()
    }
  })

  it('a burst heavier than 64 KiB leaves at once, without waiting for the interval', async () => {
    const writes: number[] = []
    const burst = createBurst((items: string[]) => { writes.push(items.length) }, (item) => item.length)
    burst.push('x')
    await tick()
    const big = 'ж'.repeat(40_000)
    burst.push(big)
    assert.deepEqual(writes, [1], 'the second waits for the interval')
    burst.push(big)
    assert.deepEqual(writes, [1, 2], 'over the weight: written by the push itself')
    await settle(40)
    assert.deepEqual(writes, [1, 2])
  })
})

describe('WebSocket text frames written by the service itself', () => {
  it('a ws client reads them as the messages they were made of, at every length encoding (7-bit, 16-bit, 64-bit)', async () => {
    const texts = ['{"a":1}', 'Қазақстан '.repeat(30), 'x'.repeat(125), 'y'.repeat(126), 'ж'.repeat(40_000), 'z'.repeat(70_000)]
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
    await once(server, 'listening')
    server.on('connection', (_socket, req) => {
      req.socket.write(Buffer.concat(texts.map((text) => textFrame(text))))
    })
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`)
    const received: string[] = []
    try {
      await new Promise<void>((resolve, reject) => {
        client.on('message', (data: Buffer, binary: boolean) => {
          assert.equal(binary, false, 'a text message')
          received.push(data.toString())
          if (received.length === texts.length) resolve()
        })
        client.on('error', reject)
      })
      assert.deepEqual(received, texts)
    } finally {
      client.terminate()
      server.close()
    }
  })
})

describe('who sees an appeal (lib/access.ts: the register, its list filter and the live stream)', () => {
  const viewer = (role: 'admin' | 'manager' | 'operator', organization: number | null, centre = false): AppealViewer =>
    ({ principal: { id: 7, email: 'x@test.kz', role, user_type: role === 'admin' ? 'platform' : 'staff', organization_id: organization }, centre })

  it('admins and the centre\'s staff see every appeal; an executor\'s staff their organization\'s; nobody else any', () => {
    const cases: [AppealViewer, number | null, boolean][] = [
      [viewer('admin', null), 5, true], [viewer('admin', null), null, true],
      [viewer('operator', 1, true), 5, true], [viewer('operator', 1, true), null, true],
      [viewer('operator', 5), 5, true], [viewer('manager', 5), 5, true],
      [viewer('operator', 5), 6, false], [viewer('manager', 5), null, false], [viewer('operator', null), null, false],
    ]
    for (const [v, executor, expected] of cases) {
      assert.equal(canSeeAppeal(v, executor), expected, `${v.principal.role} of ${v.principal.organization_id} (centre ${v.centre}) and an appeal of ${executor}`)
      // the list's filter says the same: undefined lets every appeal through, a number only that executor's
      const scope = appealExecutorScope(v)
      assert.equal(scope === undefined || scope === executor, expected)
    }
  })
})

describe('a program of the outside (lib/child-process.ts)', () => {
  it('keeps its output whole across many pipe chunks, and kills it past the most kept', async () => {
    // 3 MB of a known pattern: far more than one pipe read
    const script = 'const b = Buffer.alloc(3 * 1024 * 1024); for (let i = 0; i < b.length; i++) b[i] = i % 251; process.stdout.write(b)'
    const whole = await runProgram(process.execPath, ['-e', script], { keepOut: true, timeoutMs: 30_000 })
    assert.equal(whole.code, 0)
    assert.equal(whole.out.length, 3 * 1024 * 1024)
    assert.ok(whole.out.every((byte, i) => byte === i % 251), 'every byte as written, in order')
    const cut = await runProgram(process.execPath, ['-e', script], { keepOut: true, maxOutBytes: 100_000, timeoutMs: 30_000 })
    assert.equal(cut.overflowed, true)
    assert.ok(cut.out.length <= 100_000, `${cut.out.length} bytes kept`)
  })
  it('is killed past its time and says so', async () => {
    const slow = await runProgram(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { timeoutMs: 300 })
    assert.equal(slow.timedOut, true)
    assert.notEqual(slow.code, 0)
  })
})
