// A strict reader of Prometheus' text exposition format 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format), as a scraper
// would read it: `# HELP` and `# TYPE` before a family's samples, one family's samples together,
// label values escaped (\\, \", \n), histograms whose buckets rise to `+Inf` = `_count`. Anything
// else throws, naming the line. (The npm parser tried first drops the labels of histograms.)

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped'

export interface MetricSample {
  labels: Record<string, string>
  /** counters, gauges, untyped */
  value?: number
  /** histograms: cumulative counts by upper bound (`le`), and their sum and count */
  buckets?: Map<number, number>
  sum?: number
  count?: number
}

export interface MetricFamily { name: string, help: string, type: MetricType, samples: MetricSample[] }

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped'])

function number (text: string, line: number): number {
  if (text === '+Inf') return Infinity
  if (text === '-Inf') return -Infinity
  // as Prometheus (Go's ParseFloat) reads it: any case (prom-client writes `Nan`)
  if (text.toLowerCase() === 'nan') return NaN
  const n = Number(text)
  if (text.trim() === '' || Number.isNaN(n)) throw new Error(`line ${line}: "${text}" is not a number`)
  return n
}

/** `name{a="x",b="y"} value [timestamp]` */
function sampleLine (text: string, line: number): { name: string, labels: Record<string, string>, value: number } {
  const open = text.indexOf('{')
  const space = text.indexOf(' ')
  const nameEnd = open >= 0 && (space < 0 || open < space) ? open : space
  const name = text.slice(0, nameEnd)
  if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name "${name}"`)
  const labels: Record<string, string> = {}
  let i = nameEnd
  if (text[i] === '{') {
    i++
    while (text[i] !== '}') {
      const eq = text.indexOf('=', i)
      const label = text.slice(i, eq)
      if (!LABEL.test(label)) throw new Error(`line ${line}: bad label name "${label}"`)
      if (text[eq + 1] !== '"') throw new Error(`line ${line}: label ${label} not quoted`)
      let value = ''
      let j = eq + 2
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\') {
          const next = text[++j]
          value += next === 'n' ? '\n' : next === '\\' ? '\\' : next === '"' ? '"' : `\\${next}`
        } else value += text[j]
      }
      if (j >= text.length) throw new Error(`line ${line}: label ${label} not closed`)
      if (label in labels) throw new Error(`line ${line}: label ${label} twice`)
      labels[label] = value
      i = j + 1
      if (text[i] === ',') i++
      else if (text[i] !== '}') throw new Error(`line ${line}: expected , or } after label ${label}`)
    }
    i++
  }
  const rest = text.slice(i).trim().split(/\s+/)
  if (rest.length < 1 || rest.length > 2 || rest[0] === '') throw new Error(`line ${line}: expected a value (and a timestamp)`)
  return { name, labels, value: number(rest[0]!, line) }
}

const keyOf = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)))

export function parsePrometheusText (text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>()
  let current: MetricFamily | undefined
  const byLabels = new Map<string, MetricSample>()
  const lines = text.split('\n')
  for (const [index, raw] of lines.entries()) {
    const line = index + 1
    if (raw.trim() === '') continue
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(raw)
    if (meta) {
      const [, kind, name, rest = ''] = meta
      if (!NAME.test(name!)) throw new Error(`line ${line}: bad metric name "${name}"`)
      if (!current || current.name !== name) {
        if (families.has(name!)) throw new Error(`line ${line}: family ${name} appears twice`)
        current = { name: name!, help: '', type: 'untyped', samples: [] }
        families.set(name!, current)
        byLabels.clear()
      }
      if (kind === 'HELP') current.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\')
      else if (TYPES.has(rest)) current.type = rest as MetricType
      else throw new Error(`line ${line}: unknown type "${rest}"`)
      continue
    }
    if (raw.startsWith('#')) continue
    const s = sampleLine(raw, line)
    if (!current) throw new Error(`line ${line}: a sample before any # TYPE`)
    const suffix = current.type === 'histogram' || current.type === 'summary' ? /_(bucket|sum|count)$/.exec(s.name)?.[1] : undefined
    const base = suffix ? s.name.slice(0, -suffix.length - 1) : s.name
    if (base !== current.name) throw new Error(`line ${line}: ${s.name} outside its family (in ${current.name})`)
    if (current.type !== 'histogram') {
      current.samples.push({ labels: s.labels, value: s.value })
      continue
    }
    const { le, ...labels } = s.labels
    const key = keyOf(labels)
    let sample = byLabels.get(key)
    if (!sample) { sample = { labels, buckets: new Map() }; byLabels.set(key, sample); current.samples.push(sample) }
    if (suffix === 'bucket') {
      if (le === undefined) throw new Error(`line ${line}: a bucket without le`)
      sample.buckets!.set(number(le, line), s.value)
    } else if (suffix === 'sum') sample.sum = s.value
    else if (suffix === 'count') sample.count = s.value
    else throw new Error(`line ${line}: a histogram's sample must be _bucket, _sum or _count`)
  }
  for (const family of families.values()) {
    if (family.type !== 'histogram') continue
    for (const sample of family.samples) {
      const bounds = [...sample.buckets!.entries()].sort(([a], [b]) => a - b)
      bounds.forEach(([, n], i) => { if (i > 0 && n < bounds[i - 1]![1]) throw new Error(`${family.name}: buckets not cumulative`) })
      if (sample.buckets!.get(Infinity) !== sample.count) throw new Error(`${family.name}: the +Inf bucket is not _count`)
      if (sample.sum === undefined) throw new Error(`${family.name}: no _sum`)
    }
  }
  return families
}
