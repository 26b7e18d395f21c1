/**
 * The delay before retry number `attempt` (0 = the first retry): `baseMs` doubled each time, at most
 * `maxMs`; with `jitter`, a random 50-100% of it, so that many clients do not retry in step.
 */
export function backoffDelay (attempt: number, { baseMs, maxMs = Infinity, jitter = false }: { baseMs: number, maxMs?: number, jitter?: boolean }): number {
  const delay = Math.min(baseMs * 2 ** Math.max(0, attempt), maxMs)
  return jitter ? delay * (0.5 + Math.random() / 2) : delay
}
