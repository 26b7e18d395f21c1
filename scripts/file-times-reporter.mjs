// A reporter for node's test runner (scripts/run-tests.ts adds it beside TAP): each test file's time,
// as its top-level tests' durations summed (a file's suites run one after the other), one JSON line
// a file at the end of the run.
export default async function * fileTimes (source) {
  const byFile = new Map()
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0 || !event.data.file) continue
    byFile.set(event.data.file, (byFile.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0))
  }
  for (const [file, ms] of byFile) yield `${JSON.stringify({ file, ms })}\n`
}
