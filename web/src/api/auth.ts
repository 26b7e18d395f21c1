import { api, problemOf, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// Sign-in, passwords, invitations and the user's own profile (/api/auth).

export const signIn = (body: { email: string, password: string }) => load(api.POST('/api/auth/login', { body }))
export const forgotPassword = (body: { email: string }) => load(api.POST('/api/auth/forgot-password', { body }))
export const resetPassword = (body: { token: string, new_password: string }) => load(api.POST('/api/auth/reset-password', { body }))
export const changePassword = (body: { current_password: string, new_password: string }) => load(api.POST('/api/auth/change-password', { body }))
export const activateInvite = (body: { token: string, password: string }) => load(api.POST('/api/auth/invite/activate', { body }))

/** who an invitation is for; null when the link names none (unknown or malformed token) */
export const inviteQuery = (token: string) => ({
  queryKey: keys.invite(token),
  queryFn: async (): Promise<Schemas['InviteInfo'] | null> => {
    const { data, error, response } = await api.GET('/api/auth/invite/{token}', { params: { path: { token } } })
    if (data) return data
    if (response.status === 404 || response.status === 422) return null
    throw problemOf(error, response)
  },
})

export const profileQuery = { queryKey: keys.profile, queryFn: () => load(api.GET('/api/auth/profile')) }
export const saveProfile = (query: { phone: string, position: string }) => load(api.PUT('/api/auth/profile', { params: { query } }))
