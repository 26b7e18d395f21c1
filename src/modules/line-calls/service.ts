import { createLineReads, type LineReadsDeps } from './reads.js'
import { createLineRecorder, type LineRecorderDeps } from './recorder.js'

export type { Desk } from './recorder.js'
export type { PbxState } from './reads.js'

/** The line's calls: kept from Asterisk's events as they come (recorder.ts), shown to the supervisors (reads.ts). */
export function createLineCallService (deps: LineRecorderDeps & LineReadsDeps) {
  return { ...createLineRecorder(deps), ...createLineReads(deps) }
}

export type LineCallService = ReturnType<typeof createLineCallService>
