import { traced, traceHeaders } from '../../lib/tracing.js'

/** Posts an organization's state to the external system. Throws with a short reason on any failure. */
export interface ExtSyncClient {
  send: (payload: unknown, idempotencyKey: string) => Promise<void>
}

const MAX_ERROR_BODY = 300

export function createExtSyncClient ({ url, token, timeoutMs }: { url: string, token?: string, timeoutMs: number }): ExtSyncClient {
  return {
    send: (payload, idempotencyKey) => traced('ext-sync POST', { 'http.request.method': 'POST' }, async () => {
      let res: Response
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: {
            // the trace goes on in the external system when it reads W3C trace context
            ...traceHeaders(),
            'content-type': 'application/json',
            'idempotency-key': idempotencyKey,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (err) {
        const e = err as Error & { cause?: { code?: string, message?: string, errors?: { code?: string }[] } }
        if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new Error(`no answer within ${timeoutMs} ms`)
        throw new Error(`connection failed: ${e.cause?.code ?? e.cause?.errors?.[0]?.code ?? e.cause?.message ?? e.message}`)
      }
      if (!res.ok) {
        const body = (await res.text().catch(() => '')).slice(0, MAX_ERROR_BODY)
        throw new Error(`HTTP ${res.status}${body ? `: ${body}` : ''}`)
      }
      await res.body?.cancel()
    }),
  }
}
