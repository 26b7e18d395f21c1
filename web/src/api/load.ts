import { problemOf, type ApiProblem } from './client'

/**
 * The data of an openapi-fetch answer, or its problem thrown (for TanStack Query's error state);
 * a request that never reached the service is a problem of status 0.
 */
export async function load<T> (request: Promise<{ data?: T, error?: unknown, response: Response }>): Promise<T> {
  let answer: Awaited<typeof request>
  try {
    answer = await request
  } catch {
    const unreachable: ApiProblem = { status: 0, detail: undefined }
    throw unreachable
  }
  if (!answer.response.ok) throw problemOf(answer.error, answer.response)
  // a 204 has no data
  return answer.data as T
}
