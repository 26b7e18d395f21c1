// The README and the pages under docs/: every link between them goes to a file that is there, and
// to a heading that page has (GitHub's anchors: lower case, spaces to dashes, punctuation dropped).
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, it } from 'node:test'

const pages = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f))]
const anchor = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
const anchorsOf = (page: string) => new Set(readFileSync(page, 'utf8').split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => anchor(l.replace(/^#+ /, ''))))

describe('the documentation\'s links', () => {
  it('the README links every page under docs/, and each page is reached', () => {
    const readme = readFileSync('README.md', 'utf8')
    for (const page of pages.filter((p) => p !== 'README.md')) assert.ok(readme.includes(`](${page})`), `README.md does not link ${page}`)
  })

  it('every relative link goes to a file that exists, and its #anchor to a heading there', () => {
    const broken: string[] = []
    for (const page of pages) {
      for (const [, target] of readFileSync(page, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue
        const [file, hash] = target!.split('#') as [string, string | undefined]
        const path = file === '' ? page : join(dirname(page), file)
        if (!existsSync(path)) { broken.push(`${page}: ${target} (no file)`); continue }
        if (hash !== undefined && path.endsWith('.md') && !anchorsOf(path).has(hash)) broken.push(`${page}: ${target} (no heading)`)
      }
    }
    assert.deepEqual(broken, [])
  })
})
