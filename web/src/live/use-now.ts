import { useEffect, useState } from 'react'

/** the time now, as state: renders stay pure (no Date.now() in them) and follow the clock every `everyMs` */
export function useNow (everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}
