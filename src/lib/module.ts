import type { FastifyInstance } from 'fastify'

/** work beside the requests (a LISTEN, a job, a worker, a flush at the end) */
export interface Running {
  start?: () => unknown
  stop?: () => unknown
}

/**
 * One route group, wired by its own factory (`create<Name>Module(deps)` in its folder): its routes,
 * the work that runs beside them, and the port other modules are handed. A reader follows a call
 * from a service to its collaborator through the factory's deps, not through app.ts.
 */
export interface ServiceModule<Port = undefined> {
  /** registers the module's routes (on the root instance: it may decorate it for tests and jobs) */
  register?: (app: FastifyInstance) => Promise<void>
  /** started in order once the service is ready, stopped in reverse order when it closes */
  running?: Running[]
  /** what other modules use of this one */
  port: Port
}

/** the modules' routes in the order given; their work started once ready and stopped dependants first */
export async function mountModules (app: FastifyInstance, modules: ServiceModule<unknown>[]): Promise<void> {
  for (const module of modules) await module.register?.(app)
  const running = modules.flatMap((m) => m.running ?? [])
  // a hook each: each start has Fastify's own time limit (a LISTEN on a server that does not answer
  // takes its connection time-out, and four of them in one hook outlived the limit)
  for (const r of running) if (r.start) app.addHook('onReady', async () => { await r.start!() })
  app.addHook('onClose', async () => { for (const r of [...running].reverse()) await r.stop?.() })
}
