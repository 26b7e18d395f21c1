/** a tree picker's option: its value, the name it is searched by, its children */
export interface SearchedNode { value: string | number, title: string, children?: SearchedNode[] }

/** how well a name answers what is typed: 3 a whole word, 2 the start of a word, 1 inside a word, 0 not at all */
function matchOf (title: string, typed: string): number {
  const name = title.toLocaleLowerCase()
  const at = name.indexOf(typed)
  if (at === -1) return 0
  const words = name.split(/[^\p{L}\p{N}]+/u)
  if (words.includes(typed)) return 3
  return words.some((w) => w.startsWith(typed)) ? 2 : 1
}

/** a match's rank: the better match first, then the one nearer the top of the tree */
const rankOf = (match: number, depth: number) => (match === 0 ? -Infinity : match * 100 - depth)

/**
 * The tree as a search shows it: siblings ordered by the best match they hold, themselves or below,
 * so that «Алматы» finds the city before the district of Astana named after it. Ties keep the
 * tree's order; nothing is dropped (the picker filters by itself).
 */
export function rankedForSearch<T extends SearchedNode> (options: T[], typed: string): T[] {
  const query = typed.trim().toLocaleLowerCase()
  if (!query) return options
  const rank = (nodes: T[], depth: number): { nodes: T[], best: number } => {
    const ranked = nodes.map((node, index) => {
      const below = node.children?.length ? rank(node.children as T[], depth + 1) : undefined
      const best = Math.max(rankOf(matchOf(node.title, query), depth), below?.best ?? -Infinity)
      return { node: below ? { ...node, children: below.nodes } : node, best, index }
    })
    ranked.sort((a, b) => (b.best - a.best) || (a.index - b.index))
    return { nodes: ranked.map((r) => r.node), best: ranked[0]?.best ?? -Infinity }
  }
  return rank(options, 0).nodes
}
