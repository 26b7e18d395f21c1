import { setBounded } from './collections.js'

/**
 * A bounded per-instance cache of database rows kept fresh by invalidations (NOTIFY from every
 * instance): `forget` drops one key, `clear` all of them. While the invalidations may be missed
 * (`isLive()` false: the LISTEN connection is down) every read goes to the database and nothing is kept.
 *
 * A load that raced an invalidation is not kept: a row read before a change committed must not
 * outlive the change's notification.
 */
export function createInvalidatedCache<K, V> (options: { load: (key: K) => Promise<V | undefined>, maxEntries: number, isLive: () => boolean }) {
  const entries = new Map<K, V>()
  let generation = 0

  return {
    async get (key: K): Promise<V | undefined> {
      const live = options.isLive()
      if (live) {
        const hit = entries.get(key)
        if (hit !== undefined) return hit
      }
      const startedAt = generation
      const value = await options.load(key)
      if (live && value !== undefined && generation === startedAt && options.isLive()) setBounded(entries, key, value, options.maxEntries)
      return value
    },
    /** the kept value, without loading: undefined when none is kept (or nothing may be kept now) */
    peek (key: K): V | undefined {
      return options.isLive() ? entries.get(key) : undefined
    },
    forget (key: K): void { generation++; entries.delete(key) },
    clear (): void { generation++; entries.clear() },
  }
}
