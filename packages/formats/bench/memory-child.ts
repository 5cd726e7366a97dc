/**
 * One measurement of `memory.bench.ts`, in its own process so that its peak RSS is its own: load a
 * run (`Submissions.loadRun`) and decode + parse each of its files the way the scoring engine does,
 * or load a gold (`Gold.loadGold`). Prints one JSON line: peak RSS, time, issue counts.
 *
 * Usage: memory-child.ts <sick-run | sts-output | sick-gold> <path>
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import type { Issue } from "../src/index.js"
import { Gold, Registry, Sick, Sts, Submissions, Text } from "../src/index.js"

const [kind, file] = process.argv.slice(2)
const start = performance.now()
const issues: Array<Issue.Issue> = []
let rows = 0
const program = Effect.gen(function* () {
  if (kind === "sick-gold") {
    const gold = yield* Gold.loadGold(Registry.get("sick2014")!, file)
    issues.push(...gold.issues)
    for (const d of gold.datasets) rows += d.table.length
    return
  }
  const edition = Registry.get(kind === "sick-run" ? "sick2014" : "stsb")!
  const run = yield* Submissions.loadRun(file, edition)
  issues.push(...run.issues)
  for (const f of run.files) {
    const decoded = Text.decode(f.bytes, f.path)
    issues.push(...decoded.issues)
    if (kind === "sick-run") {
      const parsed = Sick.parseRun(decoded.value)
      issues.push(...parsed.issues)
      rows += parsed.value.rows.length
    } else {
      const parsed = Sts.parseOutput(decoded.value)
      issues.push(...parsed.issues)
      rows += parsed.value.scores.length
    }
  }
})
await Effect.runPromise(program.pipe(Effect.provide(NodeServices.layer)))
const firstError = issues.find((i) => i.severity === "error")
process.stdout.write(
  `${JSON.stringify({
    peakMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    ms: Math.round(performance.now() - start),
    rows,
    issues: issues.length,
    error: firstError === undefined ? "" : `${firstError.code}: ${firstError.message.slice(0, 100)}`
  })}\n`
)
