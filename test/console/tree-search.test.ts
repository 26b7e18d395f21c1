import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { rankedForSearch, type SearchedNode } from '../../web/src/forms/tree-search.js'

const node = (title: string, children?: SearchedNode[]): SearchedNode => ({ value: title, title, ...(children ? { children } : {}) })
const regions = [
  node('Алматинская область', [node('Конаев'), node('Талгарский район')]),
  node('город Астана', [node('район Алматы'), node('район Есиль')]),
  node('город Алматы', [node('Алмалинский район'), node('Медеуский район')]),
]
const titles = (nodes: SearchedNode[]): string[] => nodes.flatMap((n) => [n.title, ...titles(n.children ?? []).map((t) => `  ${t}`)])

// The console's tree pickers (regions, classification) in the order a search shows them.
describe('console: a tree picker ranks what a search finds', () => {
  it('the city before the district of another city named after it; the tree order kept among equals', () => {
    const ranked = titles(rankedForSearch(regions, 'Алматы'))
    assert.ok(ranked.indexOf('город Алматы') < ranked.indexOf('город Астана'), ranked.join('\n'))
    assert.deepEqual(ranked.slice(0, 3), ['город Алматы', '  Алмалинский район', '  Медеуский район'], 'the children keep their order')
  })

  it('a whole word before the start of a word before a match inside a word; nearer the top before deeper', () => {
    const tree = [node('Прочее', [node('Уборка снега')]), node('Снегоуборка'), node('Вывоз снега')]
    assert.deepEqual(rankedForSearch(tree, 'снега').map((n) => n.title), ['Вывоз снега', 'Прочее', 'Снегоуборка'], 'a word at the top, then one below, then none')
    assert.deepEqual(rankedForSearch(tree, 'снег').map((n) => n.title), ['Снегоуборка', 'Вывоз снега', 'Прочее'], 'starts of words at the top in the tree\'s order, then one below')
    assert.deepEqual(rankedForSearch(tree, 'борк').map((n) => n.title), ['Снегоуборка', 'Прочее', 'Вывоз снега'], 'inside words: the top before below')
    assert.deepEqual(rankedForSearch([node('Вода', [node('Город')]), node('Город')], 'город').map((n) => n.title), ['Город', 'Вода'])
  })

  it('no search, or spaces only: the tree as it is; case and spaces around the search do not matter', () => {
    assert.equal(rankedForSearch(regions, ''), regions)
    assert.equal(rankedForSearch(regions, '   '), regions)
    assert.deepEqual(rankedForSearch(regions, '  ГОРОД алматы ').map((n) => n.title)[0], 'город Алматы')
  })
})
