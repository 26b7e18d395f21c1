import pg from 'pg'
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

  /** a dedicated connection (LISTEN holds it), reconnected with backoff when it is lost */
  function startPostgres (pool: pg.Pool) {
    let client: pg.Client | undefined
    let closed = false
    let retry: NodeJS.Timeout | undefined
    const connect = async (attempt: number): Promise<void> => {
      const options = pool.options as pg.ClientConfig
      const c = new pg.Client(options)
      c.on('notification', (n) => { if (n.channel === channel && n.payload !== undefined) dispatch(n.payload) })
      c.on('error', () => {
        if (closed) return
        c.end().catch(() => {})
        retry = setTimeout(() => { void connect(attempt + 1) }, Math.min(100 * 2 ** attempt, 10_000))
      })
      try {
        await c.connect()
        await c.query(`listen "${channel}"`)
        client = c
      } catch {
        if (!closed) retry = setTimeout(() => { void connect(attempt + 1) }, Math.min(100 * 2 ** attempt, 10_000))
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
