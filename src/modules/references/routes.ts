import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { STRUCTURE_WRITE } from '../../lib/auth.js'
import { MessageResponse } from '../../lib/common-schemas.js'
import { bearer, ref } from '../../lib/openapi.js'
import type { ReferenceTopic } from '../../lib/reference-cache.js'
import type { ItemKind, NamedKind } from './repo.js'
import {
  CategoriesQuery, CategoryItem, IncludeInactiveQuery, ItemBase, ItemIdParams, ItemResponse, ItemUpdate, KazakhName, KazakhNameResult, KazakhNameUpdate, MethodIdParams, OrganizationItem, OrganizationsQuery,
  PersonCreate, PersonIdParams, PersonListQuery, PersonResponse, PersonUpdate, RegionItem, SourceIdParams, SubcategoriesQuery, SubcategoryItem,
} from './schemas.js'
import type { ReferenceService } from './service.js'

const tags = ['references']

/** Sources and response methods: seeded lists with the same three routes. */
const itemLists = [
  { kind: 'source' as ItemKind, path: '/sources', param: 'source_id', params: SourceIdParams, name: 'Source' },
  { kind: 'responseMethod' as ItemKind, path: '/response-methods', param: 'method_id', params: MethodIdParams, name: 'ResponseMethod' },
]

/** The lists with Kazakh names (under /kazakh-names), and the cached topic each belongs to. */
const kazakhNamed: { kind: NamedKind, path: string, topic: ReferenceTopic, name: string }[] = [
  ...itemLists.map(({ kind, path, name }) => ({ kind, path, topic: 'lists' as const, name })),
  { kind: 'region', path: '/regions', topic: 'regions', name: 'Region' },
  { kind: 'classifier', path: '/classifiers', topic: 'classifiers', name: 'Classifier' },
  { kind: 'appealType', path: '/appeal-types', topic: 'classifiers', name: 'AppealType' },
  { kind: 'category', path: '/categories', topic: 'classifiers', name: 'Category' },
  { kind: 'subcategory', path: '/subcategories', topic: 'classifiers', name: 'Subcategory' },
]

const routes: FastifyPluginAsyncTypebox<{ service: ReferenceService }> = async (app, { service }) => {
  for (const list of itemLists) {
    app.get(list.path, {
      config: { cachedAs: 'lists' },
      schema: { tags, operationId: `list${list.name}s`, summary: `List ${list.path.slice(1)}`, querystring: IncludeInactiveQuery, response: { 200: Type.Array(ref(ItemResponse)) } },
    }, async (req) => service.listItems(list.kind, req.query.include_inactive))
    app.put(`${list.path}/:${list.param}`, {
      config: { ...STRUCTURE_WRITE, changes: ['lists'] },
      schema: { tags, operationId: `update${list.name}`, summary: 'Rename or (de)activate', params: list.params, body: ref(ItemUpdate), response: { 200: ref(ItemResponse) } },
    }, async (req) => service.updateItem(list.kind, (req.params as Record<string, number>)[list.param]!, req.body))
    app.delete(`${list.path}/:${list.param}`, {
      config: { ...STRUCTURE_WRITE, changes: ['lists'] },
      schema: { tags, operationId: `delete${list.name}`, summary: 'Delete (409 while referenced)', params: list.params, response: { 200: ref(MessageResponse) } },
    }, async (req) => service.removeItem(list.kind, (req.params as Record<string, number>)[list.param]!))
  }

  // the console's: the interface's shapes name an item once, the console speaks Russian and Kazakh
  for (const { kind, path, topic, name } of kazakhNamed) {
    app.get(`/kazakh-names${path}`, {
      config: { user: true, cachedAs: topic },
      schema: { tags, security: bearer, operationId: `list${name}KazakhNames`, summary: `The Kazakh names of the ${path.slice(1)} that have one (inactive included)`, response: { 200: Type.Array(ref(KazakhName)) } },
    }, async () => service.kazakhNames(kind))
    app.put(`/kazakh-names${path}/:item_id`, {
      config: { user: ['admin'], changes: [topic] },
      schema: { tags, security: bearer, operationId: `set${name}KazakhName`, summary: 'Name an item in Kazakh, or (null) no longer', params: ItemIdParams, body: ref(KazakhNameUpdate), response: { 200: ref(KazakhNameResult) } },
    }, async (req) => service.setKazakhName(kind, req.params.item_id, req.body.name_kk))
  }

  app.get('/appeal-types', {
    config: { cachedAs: 'classifiers' },
    schema: { tags, operationId: 'listAppealTypeItems', summary: 'Active appeal types of active classifiers', response: { 200: Type.Array(ref(ItemBase)) } },
  }, async () => service.appealTypes())
  app.get('/categories', {
    config: { cachedAs: 'classifiers' },
    schema: { tags, operationId: 'listCategoryItems', summary: 'Active categories; priority is the highest of their active subcategories', querystring: CategoriesQuery, response: { 200: Type.Array(ref(CategoryItem)) } },
  }, async (req) => service.categories(req.query.appeal_type_id))
  app.get('/subcategories', {
    config: { cachedAs: 'classifiers' },
    schema: { tags, operationId: 'listSubcategoryItems', summary: 'Active subcategories', querystring: SubcategoriesQuery, response: { 200: Type.Array(ref(SubcategoryItem)) } },
  }, async (req) => service.subcategories(req.query.category_id))

  app.get('/persons', {
    // open as the interface has it; it answers citizens' IINs and phones, so a strict service asks for a token
    config: { strict: true, personalData: { subject: 'person', ids: (persons: Array<{ id: number }>) => persons.map((p) => p.id) } },
    schema: { tags, operationId: 'searchPersons', summary: 'Search persons: substrings of name and e-mail, digits of IIN and phone; exact IIN/phone first', querystring: PersonListQuery, response: { 200: Type.Array(ref(PersonResponse)) } },
  }, async (req) => service.searchPersons(req.query))
  app.post('/persons', {
    schema: { tags, operationId: 'createPerson', summary: 'Create a person', body: ref(PersonCreate), response: { 200: ref(PersonResponse) } },
  }, async (req) => service.createPerson(req.body))
  app.put('/persons/:person_id', {
    schema: { tags, operationId: 'updatePerson', summary: 'Update a person (partial)', params: PersonIdParams, body: ref(PersonUpdate), response: { 200: ref(PersonResponse) } },
  }, async (req) => service.updatePerson(req.params.person_id, req.body))
  app.delete('/persons/:person_id', {
    schema: { tags, operationId: 'deletePerson', summary: 'Delete a person', params: PersonIdParams, response: { 200: ref(MessageResponse) } },
  }, async (req) => service.removePerson(req.params.person_id))

  app.get('/regions', {
    config: { cachedAs: 'regions' },
    schema: { tags, operationId: 'listRegionItems', summary: 'Active regions with their full phone code', response: { 200: Type.Array(ref(RegionItem)) } },
  }, async () => service.regions())
  app.get('/organizations', {
    config: { cachedAs: 'organizations' },
    schema: { tags, operationId: 'listOrganizationItems', summary: 'Active organizations, optionally of one region', querystring: OrganizationsQuery, response: { 200: Type.Array(ref(OrganizationItem)) } },
  }, async (req) => service.organizations(req.query.region_id))
}

export default routes
