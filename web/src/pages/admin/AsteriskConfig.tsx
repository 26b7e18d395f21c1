import { Fragment, type ReactNode } from 'react'

// Asterisk's configuration syntax, coloured: [sections] and templates, ; comments, key = value and
// key => value (dialplan) lines. Small enough not to need a highlighting library.
const COLORS = { section: '#1454a0', comment: '#8c8c8c', key: '#9e1068', arrow: '#d46b08' }

function line (text: string): ReactNode {
  const commentAt = text.indexOf(';')
  const code = commentAt === -1 ? text : text.slice(0, commentAt)
  const comment = commentAt === -1 ? '' : text.slice(commentAt)
  let body: ReactNode = code
  const section = /^(\s*)(\[[^\]]*\])(.*)$/.exec(code)
  const pair = /^(\s*)([A-Za-z0-9_.-]+)(\s*=>?\s*)(.*)$/.exec(code)
  if (section) body = <>{section[1]}<b style={{ color: COLORS.section }}>{section[2]}</b>{section[3]}</>
  else if (pair) body = <>{pair[1]}<span style={{ color: COLORS.key }}>{pair[2]}</span><span style={{ color: COLORS.arrow }}>{pair[3]}</span>{pair[4]}</>
  return <>{body}{comment && <i style={{ color: COLORS.comment }}>{comment}</i>}</>
}

export function AsteriskConfig ({ content, label }: { content: string, label: string }) {
  return (
    <pre aria-label={label} tabIndex={0} style={{ maxHeight: 520, overflow: 'auto', background: '#fafafa', border: '1px solid #f0f0f0', padding: 12, fontSize: 13, lineHeight: 1.45 }}>
      {content.split('\n').map((text, i) => <Fragment key={i}>{line(text)}{'\n'}</Fragment>)}
    </pre>
  )
}
