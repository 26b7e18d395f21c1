// What Asterisk calls an organization's routing (DESIGN 9): names made of the organization's prefix
// and ids only, never of free text. The API answers them, the PBX's files are written with them.

export const queueName = (prefix: string, q: { id: number, is_default: boolean }) => q.is_default ? `org${prefix}-queue` : `org${prefix}-q${q.id}`
export const menuName = (prefix: string, id: number) => `org${prefix}-menu${id}`
export const scheduleName = (prefix: string, id: number) => `org${prefix}-sched${id}`
/** as the dialplan plays it: the channel's language picks `<sounds>/<lang>/appeals/org<prefix>/<id>.wav` */
export const promptSound = (prefix: string, id: number) => `appeals/org${prefix}/${id}`
