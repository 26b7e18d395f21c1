import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
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

/** the name the service gives every organization's own queue at its creation (src/modules/call-routing/queries.ts) */
const DEFAULT_QUEUE_NAME = 'Очередь организации'

/** a queue's name as the console says it: the organization's own queue, still so named, in the console's language */
export function useQueueName (): (q: Pick<Queue, 'name' | 'is_default'>) => string {
  const { t } = useTranslation()
  return (q) => (q.is_default && q.name === DEFAULT_QUEUE_NAME ? t('routing.queues.defaultName') : q.name)
}
