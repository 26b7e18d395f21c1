/**
 * `work`'s outcome, or, as soon as `signal` is aborted, a rejection with its reason: for what the
 * caller stops waiting for without being able to call it off (an answer from another system).
 */
export function untilAborted<T> (work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) { work.catch(() => {}); return Promise.reject(signal.reason) }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
