// A console whose code cannot be fetched: offline, or a new deployment that removed the old chunks.

/** the browsers' words for a dynamic import that failed (Chromium, Firefox, Safari) and Vite's for a preload */
const CHUNK_FAILURE = /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i

export const isChunkFailure = (error: unknown): boolean => error instanceof Error && CHUNK_FAILURE.test(error.message)

/** whether the service answers (the console's own page), so that a reload does not end on the browser's error page */
export async function serverAnswers (): Promise<boolean> {
  try {
    return (await fetch(import.meta.env.BASE_URL, { cache: 'no-store' })).ok
  } catch {
    return false
  }
}

const RELOADED_FOR = 'console.reloadedFor'
const RELOAD_AGAIN_AFTER_MS = 60_000

/**
 * The page loaded afresh, its code fetched again (the newest build's: a module that failed stays
 * failed in the browser, a reload is the way to fetch it again), if the service answers. Unasked,
 * once a minute for the same failure: a chunk really missing is the page's message, not a reload loop.
 */
export async function reloadPage (failure: unknown, { asked = false } = {}): Promise<boolean> {
  const key = failure instanceof Error ? failure.message : String(failure)
  const last = JSON.parse(sessionStorage.getItem(RELOADED_FOR) ?? 'null') as { key: string, at: number } | null
  if (!asked && last?.key === key && Date.now() - last.at < RELOAD_AGAIN_AFTER_MS) return false
  if (!(await serverAnswers())) return false
  sessionStorage.setItem(RELOADED_FOR, JSON.stringify({ key, at: Date.now() }))
  window.location.reload()
  return true
}

/**
 * A chunk that fails while the service answers is most likely of a build replaced since the page
 * loaded (Vite tells of it by `vite:preloadError`): the page reloads on the new build. The error
 * still reaches the page's boundary, which says so meanwhile (or, offline, until the service is back).
 */
export function reloadOnNewBuild (): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (quiet > 0) return
    void reloadPage((event as Event & { payload?: unknown }).payload)
  })
}

let quiet = 0

/**
 * Code fetched ahead of need (the console behind the sign-in page): its failure reloads nothing, so
 * that a page being filled in is not lost; the fetch that is needed reloads, or says so, as any.
 */
export async function fetchAhead (load: () => Promise<unknown>): Promise<void> {
  quiet++
  try {
    await load()
  } catch {
    // asked for again when it is needed
  } finally {
    quiet--
  }
}

/** how often a page whose code could not be fetched asks whether the service is back */
const PROBE_EVERY_MS = 5_000

/**
 * Offline, the page's code is fetched again as soon as the service answers: on the browser's
 * `online`, and every few seconds (the network may come back without the browser noticing).
 * Answers the way to stop asking.
 */
export function reloadWhenServiceReturns (failure: unknown): () => void {
  let answered = false
  const probe = async () => {
    if (answered || !(await serverAnswers())) return
    answered = true
    await reloadPage(failure)
  }
  const onOnline = () => { void probe() }
  const timer = setInterval(onOnline, PROBE_EVERY_MS)
  window.addEventListener('online', onOnline)
  return () => { clearInterval(timer); window.removeEventListener('online', onOnline) }
}
