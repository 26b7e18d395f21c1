import { api } from './client'
import { keys } from './keys'
import { load } from './load'

// The line as Asterisk's events tell it (/api/line-calls): the live board's queues, callers and agents.

export const lineBoardQuery = { queryKey: keys.board.line, queryFn: () => load(api.GET('/api/line-calls/board')) }
