import type { Database, Listener } from './client.js'

export type { Listener } from './client.js'

/** a notification to send as part of a statement of one's own (sent with its commit, no round trip of its own) */
export interface NotifyMessage { channel: string, payload: string }

/**
 * PostgreSQL LISTEN/NOTIFY for one channel: what one instance publishes reaches the listeners of
 * every instance on the same database (PGlite: the listeners of this process). NOTIFY payloads are
 * limited to 8000 bytes: publish small messages.
 */
export function createNotifier (database: Database, channel: string) {
  const notifier = makeNotifier(database, channel)
  const all = notifiers.get(database) ?? new Set<Notifier>()
  notifiers.set(database, all.add(notifier))
  return notifier
}

// every notifier of a database, for readiness: each has a LISTEN connection of its own on PostgreSQL
const notifiers = new WeakMap<Database, Set<Notifier>>()

/** the database's notifiers and whether each hears its channel now */
export function listeningOf (database: Database): { channel: string, listening: boolean }[] {
  return [...notifiers.get(database) ?? []].map((n) => ({ channel: n.channel, listening: n.listening }))
}

function makeNotifier (database: Database, channel: string) {
  const listeners = new Set<Listener>()
  const dispatch = (payload: string) => { for (const l of listeners) l(payload) }
  let stop: (() => Promise<void>) | undefined
  let listening = false
  const stateListeners = new Set<(listening: boolean) => void>()
  const onState = (now: boolean) => { listening = now; for (const l of stateListeners) l(now) }

  return {
    channel,
    async start (): Promise<void> { stop = await database.listen(channel, dispatch, onState) },
    /** whether notifications arrive now: a cache kept fresh by them is good only while they do */
    get listening () { return listening },
    /** hears every change of `listening` (a reconnect after a lost connection, say) */
    onState (listener: (listening: boolean) => void): void { stateListeners.add(listener) },
    publish: (payload: string): Promise<void> => database.notify(channel, payload),
    message: (payload: string): NotifyMessage => ({ channel, payload }),
    subscribe (listener: Listener): () => void {
      listeners.add(listener)
      return () => { listeners.delete(listener) }
    },
    stop: async () => { listeners.clear(); stateListeners.clear(); listening = false; await stop?.() },
  }
}

export type Notifier = ReturnType<typeof makeNotifier>
