/** Map.groupBy, which Node 20 lacks. */
export function groupBy<T, K> (items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group) group.push(item)
    else groups.set(k, [item])
  }
  return groups
}

/** sets `key` in a map that holds at most `max` entries: the oldest one goes first (Map keeps insertion order) */
export function setBounded<K, V> (map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value!)
  map.set(key, value)
}
