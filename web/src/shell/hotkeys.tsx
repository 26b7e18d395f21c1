import { Modal, Table } from 'antd'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** a key of a page: its combination as shown ('Ctrl+Enter', 'Alt+2'), what it does, and the doing */
export interface Hotkey {
  keys: string
  label: string
  run: () => void
}

const EDITABLE = 'input, textarea, select, [contenteditable="true"]'

/**
 * The combination a key press makes, as the hotkeys write it. Letters and digits by their place on
 * the keyboard (`code`), not the character: Alt+2 is Alt+2 in the Russian and Kazakh layouts too.
 */
function pressed (event: KeyboardEvent): string {
  const key = /^Digit\d$/.test(event.code) ? event.code.slice(5) : /^Key[A-Z]$/.test(event.code) ? event.code.slice(3) : event.key
  return [event.ctrlKey || event.metaKey ? 'Ctrl' : '', event.altKey ? 'Alt' : '', event.shiftKey && key.length > 1 ? 'Shift' : '', key].filter(Boolean).join('+')
}

/**
 * A page's keys, heard while it is open, and `?` (outside a field) for the list of them. Combinations
 * with Ctrl or Alt work inside fields too: they are made for the hands on the keyboard.
 * Returns the list's dialog, to be put on the page.
 */
export function useHotkeys (hotkeys: Hotkey[]): { help: ReactNode, showHelp: () => void } {
  const { t } = useTranslation()
  const [shown, setShown] = useState(false)
  const current = useRef(hotkeys)
  useEffect(() => { current.current = hotkeys })
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.repeat) return
      const inField = event.target instanceof Element && event.target.closest(EDITABLE) !== null
      if (event.key === '?' && !inField && !event.ctrlKey && !event.altKey && !event.defaultPrevented) { event.preventDefault(); setShown(true); return }
      const combination = pressed(event)
      const hotkey = current.current.find((h) => h.keys === combination)
      if (!hotkey || !(event.ctrlKey || event.metaKey || event.altKey)) return
      event.preventDefault()
      event.stopPropagation()
      hotkey.run()
    }
    // heard before the fields: a picker would take Ctrl+Enter as its own Enter
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [])
  const help = (
    <Modal open={shown} title={t('hotkeys.title')} footer={null} onCancel={() => setShown(false)} data-testid='hotkeys-help'>
      <Table
        size='small' pagination={false} rowKey='keys' showHeader={false}
        dataSource={[...hotkeys, { keys: '?', label: t('hotkeys.help'), run: () => {} }]}
        columns={[{ dataIndex: 'keys', width: 140, render: (keys: string) => <kbd>{keys}</kbd> }, { dataIndex: 'label' }]}
      />
    </Modal>
  )
  return { help, showHelp: () => setShown(true) }
}
