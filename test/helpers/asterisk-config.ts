/** A small parser of Asterisk's .conf format, enough to check what the generators write. */
export interface ConfSection { name: string, lines: string[], options: [string, string][] }

export function parseConf (text: string): ConfSection[] {
  const sections: ConfSection[] = []
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/;.*$/, '').trim()
    if (line === '') continue
    const header = /^\[([^\]\s]+)\]$/.exec(line)
    if (header) { sections.push({ name: header[1]!, lines: [], options: [] }); continue }
    if (line.startsWith('[')) throw new Error(`line ${i + 1}: malformed section header: ${raw}`)
    const current = sections.at(-1)
    if (!current) throw new Error(`line ${i + 1}: option outside a section: ${raw}`)
    const option = /^([A-Za-z0-9_]+)\s*=>?\s*(.*)$/.exec(line) ?? /^(same)\s*=>\s*(.*)$/.exec(line)
    if (!option) throw new Error(`line ${i + 1}: not an option: ${raw}`)
    current.lines.push(line)
    current.options.push([option[1]!, option[2]!])
  }
  return sections
}
