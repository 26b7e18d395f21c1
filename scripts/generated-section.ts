// A generated section of a documentation page, between two HTML comments: the scripts that write
// one (docs:config, docs:access) and the tests that fail while a page's section is stale share it.

export function withSection (page: string, { begin, end, file }: { begin: string, end: string, file: string }, content: string): string {
  const start = page.indexOf(begin)
  const stop = page.indexOf(end)
  if (start < 0 || stop < start) throw new Error(`${file} has no markers for its generated section (${begin})`)
  return `${page.slice(0, start + begin.length)}\n${content}\n${page.slice(stop)}`
}
