import { api, type Schemas } from './client'
import { load } from './load'

// The administration of regions (/api/regions); the lists the pages read are in references.ts.

export const createRegion = (body: Schemas['RegionCreate']) => load(api.POST('/api/regions', { body }))
export const updateRegion = (id: number, body: Schemas['RegionUpdate']) => load(api.PUT('/api/regions/{region_id}', { params: { path: { region_id: id } }, body }))
export const removeRegion = (id: number) => load(api.DELETE('/api/regions/{region_id}', { params: { path: { region_id: id } } }))
export const reorderRegions = (ids: number[]) => load(api.PUT('/api/regions/reorder', { body: { region_ids: ids } }))
