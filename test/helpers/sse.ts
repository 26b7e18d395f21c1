export interface SseEvent { event: string, data: Record<string, unknown> }

/** A Server-Sent Events client over fetch: collects the events it receives, or hands each to onEvent. */
export async function openSse (url: string, headers: Record<string, string>, onEvent?: (e: SseEvent) => void) {
  const controller = new AbortController()
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal })
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
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (!event || !data) continue
          const e = { event, data: JSON.parse(data) as Record<string, unknown> }
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
    close: async () => { controller.abort(); await pump },
  }
}
