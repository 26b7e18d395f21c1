import { useQuery } from '@tanstack/react-query'
import { workplaceQuery } from '../api/appeals'
import { useSession } from './session'

/** what the register is to the signed-in user (read once per user): the menu and the landing follow it */
export function useWorkplace () {
  const { user } = useSession()
  return useQuery({ ...workplaceQuery(user?.id ?? 0), enabled: user !== null })
}
