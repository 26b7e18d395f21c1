import { api, problemOf, type ApiProblem, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// The line's calls as kept (/api/line-calls), the supervisors' review list, and the calls' recordings
// (/api/recordings): heard with the session's token, so fetched whole and played from memory.

export const PAGE_SIZE = 50

export const lineCallsQuery = (page: number, outcome?: Schemas['LineCallView']['outcome']) => ({
  queryKey: keys.lineCalls.list(page, outcome),
  queryFn: () => load(api.GET('/api/line-calls', { params: { query: { skip: page * PAGE_SIZE, limit: PAGE_SIZE, ...(outcome ? { outcome } : {}) } } })),
})

export const reviewsQuery = (page: number) => ({
  queryKey: keys.lineCalls.reviews(page),
  queryFn: () => load(api.GET('/api/line-calls/reviews', { params: { query: { skip: page * PAGE_SIZE, limit: PAGE_SIZE } } })),
})

export const reviewCall = (linkedid: string, comment: string) =>
  load(api.POST('/api/line-calls/{linkedid}/review', { params: { path: { linkedid } }, body: { comment } }))

/** the call's transcript, when one was sent (404: none) */
export const callTranscriptQuery = (linkedid: string) => ({
  queryKey: keys.lineCalls.transcript(linkedid),
  queryFn: () => load(api.GET('/api/call-events/calls/{call_id}', { params: { path: { call_id: linkedid } } })),
})

export const callRecordingsQuery = (linkedid: string) => ({
  queryKey: keys.lineCalls.recordings(linkedid),
  queryFn: () => load(api.GET('/api/line-calls/{linkedid}/recordings', { params: { path: { linkedid } } })),
})

export const recordingSoundQuery = (id: number) => ({ queryKey: keys.recordingSound(id), queryFn: () => fetchRecording(id) })

/** a recording's sound, whole (a call's is some hundred kilobytes); its problem thrown as the pages show them */
export async function fetchRecording (id: number): Promise<Blob> {
  let answer
  try {
    answer = await api.GET('/api/recordings/{recording_id}', { params: { path: { recording_id: id } }, parseAs: 'blob' })
  } catch {
    const unreachable: ApiProblem = { status: 0, detail: undefined }
    throw unreachable
  }
  if (!answer.response.ok) throw problemOf(answer.error, answer.response)
  return answer.data as Blob
}

export const recordingUsageQuery = { queryKey: keys.lineCalls.usage, queryFn: () => load(api.GET('/api/recordings/usage')) }
