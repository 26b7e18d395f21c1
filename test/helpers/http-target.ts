import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest { method: string, url: string, headers: IncomingMessage['headers'], body: string }
export type Behaviour = (req: IncomingMessage, res: ServerResponse) => void

export const answers = {
  ok: ((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}') }) as Behaviour,
  status: (code: number, body = 'upstream trouble'): Behaviour => (_req, res) => { res.writeHead(code).end(body) },
  /** 200 after a while */
  delayed: (ms: number): Behaviour => (_req, res) => { setTimeout(() => res.writeHead(200).end('{"ok":true}'), ms) },
  /** accepts the request and never answers */
  silent: (() => {}) as Behaviour,
}

/** A real HTTP server on 127.0.0.1 that records what it receives and answers as the test says. */
export async function startHttpTarget (initial: Behaviour = answers.ok) {
  const received: ReceivedRequest[] = []
  let behaviour = initial
  const queue: Behaviour[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => { body += c.toString() })
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      ;(queue.shift() ?? behaviour)(req, res)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sync`,
    received,
    /** answers for the next requests, in order; then the default */
    answerNext: (...next: Behaviour[]) => { queue.push(...next) },
    setDefault: (b: Behaviour) => { behaviour = b },
    close: async () => { server.closeAllConnections(); server.close(); await once(server, 'close').catch(() => {}) },
  }
}

/** Polls until check() is truthy. */
export async function eventually<T> (check: () => Promise<T | undefined | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
