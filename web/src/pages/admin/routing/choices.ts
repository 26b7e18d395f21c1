import { useQuery } from '@tanstack/react-query'
import { menusQuery, promptsQuery, queuesQuery, type Menu, type Prompt, type Queue } from '../../../api/routing'
import { endpointsQuery } from '../../../api/telephony'

/** what a destination of this organization may name: its queues, terminals, menus and prompts */
export interface RoutingChoices { queues: Queue[], terminals: { id: string, name: string }[], menus: Menu[], prompts: Prompt[] }

export function useRoutingChoices (tenant: number): RoutingChoices {
  const queues = useQuery(queuesQuery(tenant)).data ?? []
  const terminals = useQuery(endpointsQuery(tenant)).data ?? []
  const menus = useQuery(menusQuery(tenant)).data ?? []
  const prompts = useQuery(promptsQuery(tenant)).data ?? []
  return { queues, terminals, menus, prompts }
}
