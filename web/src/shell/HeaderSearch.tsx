import { SearchOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { AutoComplete, Button, Input, Modal, Space, Typography } from 'antd'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { appealSearchQuery } from '../api/appeals'
import { personSearchQuery } from '../api/references'
import type { Schemas } from '../api/client'

const DELAY_MS = 250
const MIN_LENGTH = 2
const PERSONS_SHOWN = 5

type Person = Schemas['PersonResponse']

/** the value after it has stopped changing for `ms` */
function useSettled<T> (value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/** where a citizen's appeals are: the register filtered by what the form shows (IIN, phone), else by the person */
function appealsOf (person: Person): string {
  if (person.iin) return `/appeals?iin=${person.iin}`
  if (person.phone) return `/appeals?phone=${encodeURIComponent(person.phone)}`
  return `/appeals?person_id=${person.id}`
}

/**
 * One search in the header, answering while typing: appeals by number or its end, the applicant's
 * name, IIN or phone, words of the text (the service's register search, within what the user may
 * see), and, for the centre's staff, the citizens. Enter alone searches the whole register; `/`
 * outside a field comes here. On a narrow screen it opens from a button.
 */
export function HeaderSearch ({ narrow, withCitizens }: { narrow: boolean, withCitizens: boolean }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const inField = event.target instanceof Element && event.target.closest('input, textarea, select, [contenteditable="true"]') !== null
      if (event.key !== '/' || inField || event.ctrlKey || event.altKey || event.metaKey) return
      event.preventDefault()
      if (narrow) setOpen(true)
      else input.current?.focus()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [narrow])

  if (!narrow) return <SearchBox withCitizens={withCitizens} inputRef={input} />
  return (
    <>
      <Button type='text' icon={<SearchOutlined aria-hidden style={{ color: '#fff' }} />} aria-label={t('search.label')} title={t('search.label')} onClick={() => setOpen(true)} />
      <Modal open={open} onCancel={() => setOpen(false)} footer={null} title={<span style={{ display: 'block', paddingRight: 28 }}>{t('search.label')}</span>} destroyOnHidden>
        <SearchBox withCitizens={withCitizens} autoFocus inDialog onDone={() => setOpen(false)} />
      </Modal>
    </>
  )
}

/** `inDialog`: on a phone, where the results take the field's width rather than overhang the dialog */
function SearchBox ({ withCitizens, autoFocus, inDialog = false, inputRef, onDone }: { withCitizens: boolean, autoFocus?: boolean, inDialog?: boolean, inputRef?: React.Ref<HTMLInputElement>, onDone?: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [text, setText] = useState('')
  const q = useSettled(text.trim(), DELAY_MS)
  const enabled = q.length >= MIN_LENGTH
  const appeals = useQuery({ ...appealSearchQuery(q), enabled })
  const persons = useQuery({ ...personSearchQuery(q), enabled: enabled && withCitizens })

  const go = (path: string) => {
    setText('')
    onDone?.()
    void navigate(path)
  }
  const pending = enabled && (appeals.isFetching || (withCitizens && persons.isFetching))
  const whole = text.trim()
  const appealOptions = (appeals.data?.items ?? []).map((a) => ({
    value: `appeal:${a.id}`,
    label: <Line main={`${a.number} · ${a.citizen_name}`} detail={`${t(`appeals.statuses.${a.status}`)} · ${a.text.slice(0, 80)}`} />,
  }))
  const personOptions = (withCitizens ? persons.data ?? [] : []).slice(0, PERSONS_SHOWN).map((p) => ({
    value: `person:${p.id}`,
    label: <Line main={p.full_name} detail={[p.iin && `${t('desk.form.iin')} ${p.iin}`, p.phone].filter(Boolean).join(' · ') || '—'} />,
  }))
  const options: { value?: string, label: ReactNode, options?: unknown[], disabled?: boolean }[] = whole.length < MIN_LENGTH
    ? []
    : [
        { value: `all:${whole}`, label: <Typography.Text>{t('search.everywhere', { text: whole })}</Typography.Text> },
        ...group(t('search.appeals'), appealOptions),
        ...group(t('search.citizens'), personOptions),
      ]
  const found = (appeals.data?.items.length ?? 0) + (withCitizens ? persons.data?.length ?? 0 : 0)
  if (enabled && q === whole && !pending && found === 0) options.push({ value: 'none:', label: <Typography.Text type='secondary'>{t('search.nothing')}</Typography.Text>, disabled: true })

  function pick (value: string) {
    const [kind, rest] = [value.slice(0, value.indexOf(':')), value.slice(value.indexOf(':') + 1)]
    if (kind === 'appeal') return go(`/appeals/${rest}`)
    if (kind === 'person') {
      const person = persons.data?.find((p) => p.id === Number(rest))
      return go(person ? appealsOf(person) : `/appeals?person_id=${rest}`)
    }
    go(`/appeals?q=${encodeURIComponent(rest)}`)
  }

  return (
    <AutoComplete
      value={text} onChange={setText} onSelect={pick} options={options} defaultActiveFirstOption popupMatchSelectWidth={inDialog || narrowWidth()}
      style={{ width: '100%', maxWidth: 460 }} data-testid='header-search'
      notFoundContent={whole.length >= MIN_LENGTH && pending ? t('common.loading') : undefined}
    >
      <Input
        ref={inputRef as never} autoFocus={autoFocus} allowClear prefix={<SearchOutlined aria-hidden />}
        placeholder={t('search.hint')} aria-label={t('search.label')} aria-busy={pending}
      />
    </AutoComplete>
  )
}

/** the dropdown at least as wide as a result needs, within the screen */
const narrowWidth = () => Math.min(520, window.innerWidth - 24)

function group (label: string, options: { value: string, label: ReactNode }[]) {
  return options.length === 0 ? [] : [{ label: <Typography.Text type='secondary' strong>{label}</Typography.Text>, options }]
}

function Line ({ main, detail }: { main: string, detail: string }) {
  return (
    <Space direction='vertical' size={0} style={{ width: '100%', whiteSpace: 'normal' }}>
      <Typography.Text>{main}</Typography.Text>
      <Typography.Text type='secondary' style={{ fontSize: 12 }}>{detail}</Typography.Text>
    </Space>
  )
}
