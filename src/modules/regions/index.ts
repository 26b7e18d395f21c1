export { createRegionRepo, type RegionRow } from './repo.js'
export { createRegionService, indexRegions } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
