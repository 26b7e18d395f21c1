import { ConflictError, NotFoundError } from '../../lib/errors.js'
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
    async remove (id: number): Promise<{ message: string }> {
      await get(id)
      const used = await repo.organizationCount(id)
      if (used > 0) throw new ConflictError(`Group ${id} is used by ${used} organizations; remove it from them first`, 'still_referenced')
      // the restricting foreign key answers 409 too if an organization joins the group meanwhile
      if (!await repo.remove(id)) throw new NotFoundError('Group')
      return { message: 'Group deleted' }
    },
  }
}

export type GroupService = ReturnType<typeof createGroupService>
