import pg from 'pg'
import { backoffDelay } from '../lib/backoff.js'
import type { Database } from './client.js'

export type Listener = (payload: string) => void

/**
 * PostgreSQL LISTEN/NOTIFY for one channel: what one instance publishes reaches the listeners of
 * every instance on the same database (PGlite: the listeners of this process). NOTIFY payloads are
 * limited to 8000 bytes: publish small messages.
 */
export function createNotifier (database: Database, channel: string) {
  const listeners = new Set<Listener>()
  const dispatch = (payload: string) => { for (const l of listeners) l(payload) }
  let stop: (() => Promise<void>) | undefined

  async function startPglite (client: Extract<Database['driver'], { kind: 'pglite' }>['client']) {
    const unlisten = await client.listen(channel, dispatch)
    stop = async () => { if (!client.closed) await unlisten() }
  }

  /**
   * A dedicated connection (LISTEN holds it), reconnected with backoff when it is lost; the backoff
   * starts again after a connection that worked, and a client whose LISTEN failed is closed.
   */
  function startPostgres (pool: pg.Pool) {
    let client: pg.Client | undefined
    let closed = false
    let retry: NodeJS.Timeout | undefined
    const connect = async (attempt: number): Promise<void> => {
      const c = new pg.Client(pool.options as pg.ClientConfig)
      let listening = false
      let gaveUp = false
      const reconnect = () => {
        if (gaveUp || closed) return
        gaveUp = true
        if (client === c) client = undefined
        c.end().catch(() => {})
        const next = listening ? 0 : attempt + 1
        retry = setTimeout(() => { void connect(next) }, backoffDelay(next, { baseMs: 100, maxMs: 10_000 }))
      }
      c.on('notification', (n) => { if (n.channel === channel && n.payload !== undefined) dispatch(n.payload) })
      c.on('error', reconnect)
      try {
        await c.connect()
        await c.query(`listen "${channel}"`)
        listening = true
        client = c
      } catch {
        reconnect()
      }
    }
    stop = async () => { closed = true; clearTimeout(retry); await client?.end().catch(() => {}) }
    return connect(0)
  }

  return {
    async start (): Promise<void> {
      if (database.driver.kind === 'pglite') await startPglite(database.driver.client)
      else await startPostgres(database.driver.pool)
    },
    publish: async (payload: string): Promise<void> => {
      if (database.driver.kind === 'pglite') await database.driver.client.query('select pg_notify($1, $2)', [channel, payload])
      else await database.driver.pool.query('select pg_notify($1, $2)', [channel, payload])
    },
    subscribe (listener: Listener): () => void {
      listeners.add(listener)
      return () => { listeners.delete(listener) }
    },
    stop: async () => { listeners.clear(); await stop?.() },
  }
}

export type Notifier = ReturnType<typeof createNotifier>
