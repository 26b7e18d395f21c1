/** `event` is `message` when the server named none; `raw` is the data line as sent ([DONE] is not JSON) */
import assert from 'node:assert/strict'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { LiveEventMessage } from '../../src/modules/call-events/live-events.js'

const checkLiveEvent = addFormats.default(new Ajv({ allErrors: true, strict: false })).compile(LiveEventMessage)

/** every event a console received is one of the live stream's schemas (live-events.ts), its SSE name its type */
export function assertLiveEvents (events: SseEvent[]): void {
  for (const e of events) {
    if (e.event === 'message') continue
    assert.ok(checkLiveEvent(e.data), `${e.event} does not match its schema: ${JSON.stringify(checkLiveEvent.errors?.slice(0, 3))} in ${e.raw.slice(0, 300)}`)
    assert.equal(e.data.type, e.event)
  }
}

export interface SseEvent { event: string, data: Record<string, unknown>, raw: string, at: number }

/**
 * A Server-Sent Events client over fetch: collects the events it receives, or hands each to onEvent.
 * A body makes it a POST.
 */
export async function openSse (url: string, headers: Record<string, string>, onEvent?: (e: SseEvent) => void, body?: unknown) {
  const controller = new AbortController()
  const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }
  const res = await fetch(url, { ...init, headers: { accept: 'text/event-stream', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, signal: controller.signal })
  const events: SseEvent[] = []
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffer += decoder.decode(value, { stream: true })
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (data === undefined) continue
          const e = { event, data: data.startsWith('{') ? JSON.parse(data) as Record<string, unknown> : {}, raw: data, at: performance.now() }
          if (onEvent) onEvent(e)
          else events.push(e)
        }
      }
    } catch { /* aborted */ }
  })()
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    /** resolves when the server ends the stream */
    ended: pump,
    close: async () => { controller.abort(); await pump },
  }
}
