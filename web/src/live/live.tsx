import { useQueryClient } from '@tanstack/react-query'
import type { Schemas } from '../api/client'
import { keys } from '../api/keys'
import { createContext, useContext, useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react'

/** what the service pushes to consoles: one schema per event (src/modules/call-events/live-events.ts, through openapi.json) */
export type LiveEvent = Schemas['LiveEventMessage']
export type LiveStatus = 'connecting' | 'open' | 'closed'
type Listener = (event: LiveEvent) => void

interface Live { status: LiveStatus, subscribe: (listener: Listener) => () => void }
const LiveContext = createContext<Live | null>(null)

const MAX_BACKOFF_MS = 30_000

/**
 * One WebSocket per signed-in console (`/api/call-events/ws`, the token as the subprotocol pair
 * `bearer, <token>` so it stays out of URLs and logs). It reconnects with backoff; after a
 * reconnect every query is refetched, since events may have been missed meanwhile. The connection is
 * also the operator's presence: online while it is open.
 */
export function LiveProvider ({ token, children }: { token: string, children: ReactNode }) {
  const queries = useQueryClient()
  const listeners = useRef(new Set<Listener>())
  const [status, setStatus] = useState<LiveStatus>('connecting')

  useEffect(() => {
    let socket: WebSocket | undefined
    let stopped = false
    let attempt = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    let wasOpen = false
    const connect = () => {
      setStatus('connecting')
      const url = new URL('/api/call-events/ws', window.location.href)
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
      socket = new WebSocket(url, ['bearer', token])
      socket.onopen = () => {
        attempt = 0
        setStatus('open')
        if (wasOpen) void queries.invalidateQueries()
        wasOpen = true
      }
      socket.onmessage = (message) => {
        const event = JSON.parse(String(message.data)) as LiveEvent
        if (event.type.startsWith('appeal.')) void queries.invalidateQueries({ queryKey: keys.appeals.all })
        for (const listener of listeners.current) listener(event)
      }
      socket.onclose = () => {
        if (stopped) return
        setStatus('closed')
        timer = setTimeout(connect, Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt++))
      }
    }
    // the browser knows it is offline: the connection is as good as lost (its close would come only
    // with the next heartbeat); back online, connect now rather than at the end of the backoff
    const offline = () => {
      if (!socket || socket.readyState === WebSocket.CLOSED) return
      const lost = socket
      lost.onclose = null
      lost.onmessage = null
      lost.close()
      setStatus('closed')
    }
    const online = () => {
      clearTimeout(timer)
      attempt = 0
      if (!socket || socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) connect()
    }
    window.addEventListener('offline', offline)
    window.addEventListener('online', online)
    connect()
    return () => {
      stopped = true
      window.removeEventListener('offline', offline)
      window.removeEventListener('online', online)
      clearTimeout(timer)
      socket?.close()
    }
  }, [token, queries])

  const [live] = useState<Omit<Live, 'status'>>(() => ({
    subscribe (listener) {
      listeners.current.add(listener)
      return () => { listeners.current.delete(listener) }
    },
  }))
  return <LiveContext.Provider value={{ ...live, status }}>{children}</LiveContext.Provider>
}

function useLive (): Live {
  const live = useContext(LiveContext)
  if (!live) throw new Error('useLive outside LiveProvider')
  return live
}

export const useLiveStatus = (): LiveStatus => useLive().status

/** calls `handler` for each event pushed to this console, the latest handler each time */
export function useLiveEvents (handler: Listener): void {
  const { subscribe } = useLive()
  const onEvent = useEffectEvent(handler)
  useEffect(() => subscribe((event) => onEvent(event)), [subscribe])
}
