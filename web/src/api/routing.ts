import { api, problemOf, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// An organization's call routing (/api/organizations/{tenant_id}/queues, lines, menus, schedules,
// prompts) and the recordings of its prompts.

export type Queue = Schemas['QueueResponse']
export type Line = Schemas['LineResponse']
export type Menu = Schemas['MenuResponse']
export type Schedule = Schemas['ScheduleResponse']
export type Prompt = Schemas['PromptResponse']
export type Destination = Schemas['Destination']
export type Language = 'ru' | 'kk'

const tenant = (id: number) => ({ params: { path: { tenant_id: id } } })
const item = (tenantId: number, id: number) => ({ params: { path: { tenant_id: tenantId, item_id: id } } })

export const queuesQuery = (t: number) => ({ queryKey: keys.admin.routing.of(t, 'queues'), queryFn: () => load(api.GET('/api/organizations/{tenant_id}/queues', tenant(t))) })
export const linesQuery = (t: number) => ({ queryKey: keys.admin.routing.of(t, 'lines'), queryFn: () => load(api.GET('/api/organizations/{tenant_id}/lines', tenant(t))) })
export const menusQuery = (t: number) => ({ queryKey: keys.admin.routing.of(t, 'menus'), queryFn: () => load(api.GET('/api/organizations/{tenant_id}/menus', tenant(t))) })
export const schedulesQuery = (t: number) => ({ queryKey: keys.admin.routing.of(t, 'schedules'), queryFn: () => load(api.GET('/api/organizations/{tenant_id}/schedules', tenant(t))) })
export const promptsQuery = (t: number) => ({ queryKey: keys.admin.routing.of(t, 'prompts'), queryFn: () => load(api.GET('/api/organizations/{tenant_id}/prompts', tenant(t))) })

export const saveQueue = (t: number, id: number | undefined, body: Schemas['QueueCreate']) => id === undefined
  ? load(api.POST('/api/organizations/{tenant_id}/queues', { ...tenant(t), body }))
  : load(api.PUT('/api/organizations/{tenant_id}/queues/{item_id}', { ...item(t, id), body }))
export const removeQueue = (t: number, id: number) => load(api.DELETE('/api/organizations/{tenant_id}/queues/{item_id}', item(t, id)))

export const saveLine = (t: number, id: number | undefined, body: Schemas['LineCreate']) => id === undefined
  ? load(api.POST('/api/organizations/{tenant_id}/lines', { ...tenant(t), body }))
  : load(api.PUT('/api/organizations/{tenant_id}/lines/{item_id}', { ...item(t, id), body }))
export const removeLine = (t: number, id: number) => load(api.DELETE('/api/organizations/{tenant_id}/lines/{item_id}', item(t, id)))

export const saveMenu = (t: number, id: number | undefined, body: Schemas['MenuCreate']) => id === undefined
  ? load(api.POST('/api/organizations/{tenant_id}/menus', { ...tenant(t), body }))
  : load(api.PUT('/api/organizations/{tenant_id}/menus/{item_id}', { ...item(t, id), body }))
export const removeMenu = (t: number, id: number) => load(api.DELETE('/api/organizations/{tenant_id}/menus/{item_id}', item(t, id)))

export const saveSchedule = (t: number, id: number | undefined, body: Schemas['ScheduleCreate']) => id === undefined
  ? load(api.POST('/api/organizations/{tenant_id}/schedules', { ...tenant(t), body }))
  : load(api.PUT('/api/organizations/{tenant_id}/schedules/{item_id}', { ...item(t, id), body }))
export const removeSchedule = (t: number, id: number) => load(api.DELETE('/api/organizations/{tenant_id}/schedules/{item_id}', item(t, id)))

export const savePrompt = (t: number, id: number | undefined, name: string) => id === undefined
  ? load(api.POST('/api/organizations/{tenant_id}/prompts', { ...tenant(t), body: { name } }))
  : load(api.PUT('/api/organizations/{tenant_id}/prompts/{item_id}', { ...item(t, id), body: { name } }))
export const removePrompt = (t: number, id: number) => load(api.DELETE('/api/organizations/{tenant_id}/prompts/{item_id}', item(t, id)))

const recordingPath = (t: number, id: number, language: Language) => ({ params: { path: { tenant_id: t, item_id: id, language } } })

/** the file itself as the body: the service checks it is a WAV Asterisk plays */
export const uploadRecording = (t: number, id: number, language: Language, file: File) =>
  load(api.PUT('/api/organizations/{tenant_id}/prompts/{item_id}/recordings/{language}', {
    ...recordingPath(t, id, language), body: file as never, bodySerializer: (body: unknown) => body as Blob, headers: { 'content-type': file.type || 'application/octet-stream' },
  }))
export const removeRecording = (t: number, id: number, language: Language) => load(api.DELETE('/api/organizations/{tenant_id}/prompts/{item_id}/recordings/{language}', recordingPath(t, id, language)))

/** a recording to play in the browser: the request carries the token, so a blob, not a plain link */
export const recordingQuery = (t: number, id: number, language: Language, uploadedAt: string) => ({
  queryKey: keys.admin.routing.recording(t, id, language, uploadedAt),
  queryFn: async () => {
    const { data, error, response } = await api.GET('/api/organizations/{tenant_id}/prompts/{item_id}/recordings/{language}', { ...recordingPath(t, id, language), parseAs: 'blob' })
    if (!data) throw problemOf(error, response)
    return URL.createObjectURL(data as Blob)
  },
  staleTime: Infinity,
})
