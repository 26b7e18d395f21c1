import { markRoutes } from '../../lib/auth.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TSchema } from 'typebox'
import { MessageResponse } from '../../lib/common-schemas.js'
import { bearer, ref } from '../../lib/openapi.js'
import type { LevelName } from './repo.js'
import {
  AppealTypeCreate, AppealTypeListQuery, AppealTypeResponse, AppealTypeUpdate, CategoryCreate, CategoryListQuery, CategoryResponse,
  CategoryUpdate, ClassifierCreate, ClassifierIdParams, ClassifierListQuery, ClassifierResponse, ClassifierTree, ClassifierUpdate,
  ItemIdParams, SubcategoryCreate, SubcategoryListQuery, SubcategoryResponse, SubcategoryUpdate,
} from './schemas.js'
import type { ClassifierService } from './service.js'

const tags = ['classifiers']
const security = bearer

/** The three levels below a classifier share one shape of routes: list by parent, create, update, delete. */
const childLevels: { level: LevelName, path: string, name: string, parentQuery: string, list: TSchema, create: TSchema, update: TSchema, response: TSchema }[] = [
  { level: 'appealType', path: '/appeal-types', name: 'AppealType', parentQuery: 'classifier_id', list: AppealTypeListQuery, create: AppealTypeCreate, update: AppealTypeUpdate, response: AppealTypeResponse },
  { level: 'category', path: '/categories', name: 'Category', parentQuery: 'appeal_type_id', list: CategoryListQuery, create: CategoryCreate, update: CategoryUpdate, response: CategoryResponse },
  { level: 'subcategory', path: '/subcategories', name: 'Subcategory', parentQuery: 'category_id', list: SubcategoryListQuery, create: SubcategoryCreate, update: SubcategoryUpdate, response: SubcategoryResponse },
]

const routes: FastifyPluginAsyncTypebox<{ service: ClassifierService }> = async (app, { service }) => {
  markRoutes(app, { user: true })
  const adminOnly = { user: ['admin'] } as const

  app.get('', {
    schema: { tags, security, operationId: 'listClassifiers', summary: 'List classifiers', querystring: ClassifierListQuery, response: { 200: Type.Array(ref(ClassifierResponse)) } },
  }, async (req) => service.list('classifier', { includeInactive: req.query.include_inactive }))

  app.post('', {
    config: adminOnly,
    schema: { tags, security, operationId: 'createClassifier', summary: 'Create a classifier', body: ref(ClassifierCreate), response: { 201: ref(ClassifierResponse) } },
  }, async (req, reply) => reply.code(201).send(await service.create('classifier', req.body)))

  for (const c of childLevels) {
    app.get(c.path, {
      schema: { tags, security, operationId: `list${c.name}s`, summary: `List ${c.path.slice(1)}, optionally of one parent`, querystring: c.list, response: { 200: Type.Array(ref(c.response)) } },
    }, async (req) => {
      const query = req.query as Record<string, unknown>
      return service.list(c.level, { parentId: query[c.parentQuery] as number | undefined, includeInactive: query.include_inactive as boolean })
    })
    app.post(c.path, {
      config: adminOnly,
      schema: { tags, security, operationId: `create${c.name}`, summary: `Create ${c.path.slice(1)} item`, body: ref(c.create), response: { 201: ref(c.response) } },
    }, async (req, reply) => reply.code(201).send(await service.create(c.level, req.body as Record<string, unknown>)))
    app.put(`${c.path}/:item_id`, {
      config: adminOnly,
      schema: { tags, security, operationId: `update${c.name}`, summary: 'Update (partial; is_active=false hides it)', params: ItemIdParams, body: ref(c.update), response: { 200: ref(c.response) } },
    }, async (req) => service.update(c.level, req.params.item_id, req.body as Record<string, unknown>))
    app.delete(`${c.path}/:item_id`, {
      config: adminOnly,
      schema: { tags, security, operationId: `delete${c.name}`, summary: 'Delete when nothing is below it (409 otherwise)', params: ItemIdParams, response: { 200: ref(MessageResponse) } },
    }, async (req) => service.remove(c.level, req.params.item_id))
  }

  app.get('/:classifier_id', {
    schema: { tags, security, operationId: 'getClassifier', summary: 'Get a classifier', params: ClassifierIdParams, response: { 200: ref(ClassifierResponse) } },
  }, async (req) => service.get('classifier', req.params.classifier_id))

  app.put('/:classifier_id', {
    config: adminOnly,
    schema: { tags, security, operationId: 'updateClassifier', summary: 'Update a classifier (partial)', params: ClassifierIdParams, body: ref(ClassifierUpdate), response: { 200: ref(ClassifierResponse) } },
  }, async (req) => service.update('classifier', req.params.classifier_id, req.body))

  app.delete('/:classifier_id', {
    config: adminOnly,
    schema: { tags, security, operationId: 'deleteClassifier', summary: 'Delete a classifier without appeal types (409 otherwise)', params: ClassifierIdParams, response: { 200: ref(MessageResponse) } },
  }, async (req) => service.remove('classifier', req.params.classifier_id))

  app.get('/:classifier_id/tree', {
    schema: { tags, security, operationId: 'getClassifierTree', summary: 'The active appeal types, categories and subcategories, nested and ordered', params: ClassifierIdParams, response: { 200: ref(ClassifierTree) } },
  }, async (req) => service.tree(req.params.classifier_id))
}

export default routes
