import { NotFoundError } from '../../lib/errors.js'
import type { GroupRepo } from './repo.js'
import type { GroupCreate, GroupResponse, GroupUpdate } from './schemas.js'

export function createGroupService ({ repo }: { repo: GroupRepo }) {
  async function get (id: number): Promise<GroupResponse> {
    const row = await repo.findById(id)
    if (!row) throw new NotFoundError('Group')
    return row
  }
  return {
    list: (): Promise<GroupResponse[]> => repo.list(),
    get,
    // a duplicate name is a unique violation, answered 409 by the error handler
    create: (input: GroupCreate): Promise<GroupResponse> => repo.insert(input.name),
    async update (id: number, input: GroupUpdate): Promise<GroupResponse> {
      const row = await repo.rename(id, input.name)
      if (!row) throw new NotFoundError('Group')
      return row
    },
    // organizations refer to groups through a restricting foreign key: deleting a group in use is 409
    async remove (id: number): Promise<{ message: string }> {
      if (!await repo.remove(id)) throw new NotFoundError('Group')
      return { message: 'Group deleted' }
    },
  }
}

export type GroupService = ReturnType<typeof createGroupService>
