import { api, type Schemas } from './client'
import { keys } from './keys'
import { load } from './load'

// Employees (/api/employees) and their invitations (/api/auth/send-invite).

export const employeeListQuery = (q: string) => ({
  queryKey: keys.admin.employees.list(q),
  queryFn: () => load(api.GET('/api/employees', { params: { query: { q: q || undefined, include_inactive: true, limit: 500 } } })),
})

export const employeesOfQuery = (organizationId: number) => ({
  queryKey: keys.admin.employees.ofOrganization(organizationId),
  queryFn: () => load(api.GET('/api/employees', { params: { query: { organization_id: organizationId, limit: 1000 } } })),
})

export const sendInvite = (id: number) => load(api.POST('/api/auth/send-invite/{employee_id}', { params: { path: { employee_id: id } } }))
export const setEmployeeActive = (id: number, active: boolean) => load(api.PUT('/api/employees/{employee_id}', { params: { path: { employee_id: id } }, body: { is_active: active } }))

/** a new employee, invited at once: the employee and what became of the invitation */
export async function createAndInvite (body: Schemas['EmployeeCreate']) {
  const created = await load(api.POST('/api/employees', { body }))
  return { ...created, invitation: await sendInvite(created.id) }
}
