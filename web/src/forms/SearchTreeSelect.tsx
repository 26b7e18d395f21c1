import { TreeSelect, type TreeSelectProps } from 'antd'
import { useMemo, useState } from 'react'
import type { TreeOption } from '../references/references'
import { rankedForSearch } from './tree-search'

type OptionValue = TreeOption['value']
type Props = Omit<TreeSelectProps, 'showSearch' | 'treeNodeFilterProp' | 'treeData' | 'onSearch' | 'treeExpandedKeys' | 'onTreeExpand'> & { treeData: TreeOption[] }

const branchValues = (options: TreeOption[]): OptionValue[] =>
  options.flatMap((o) => (o.children?.length ? [o.value, ...branchValues(o.children)] : []))

/**
 * A tree picker searched by the names shown. Ant Design unfolds the branches of the matches only
 * when the typed text changes: options that arrive while a search is typed (a list read again when
 * the picker opens) stayed folded, their matches out of sight. Here every branch is open while a
 * search is on, whatever arrives, until the user folds one; and the best matches come first.
 */
export function SearchTreeSelect ({ treeData, onOpenChange, ...props }: Props) {
  const [search, setSearch] = useState('')
  const [folded, setFolded] = useState<{ search: string, treeData: TreeOption[], expanded: OptionValue[] } | null>(null)
  const allBranches = useMemo(() => branchValues(treeData), [treeData])
  const shown = useMemo(() => rankedForSearch(treeData, search), [treeData, search])
  const userFolded = folded !== null && folded.search === search && folded.treeData === treeData
  const expanded = search ? (userFolded ? folded.expanded : allBranches) : undefined
  return (
    <TreeSelect
      {...props} treeData={shown} showSearch treeNodeFilterProp='title'
      onSearch={setSearch}
      treeExpandedKeys={expanded}
      onTreeExpand={(keys) => { if (search) setFolded({ search, treeData, expanded: keys }) }}
      onOpenChange={(open) => { if (!open) setSearch(''); onOpenChange?.(open) }}
    />
  )
}
