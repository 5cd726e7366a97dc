/**
 * End-to-end timings of the command line against the official scorer's language:
 * `stseval score` on a SICK-test run (4927 pairs), beside R doing the official scorer's computation
 * on the same files (sick_score.R; skipped when Rscript is absent). Wall-clock medians of a few
 * process launches, so they include start-up: that is what a participant waits for.
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Sts, StsBenchmark, Text } from "@stseval/formats"

const root = path.resolve(import.meta.dirname, "../../..")
const gold = path.join(root, "examples/sick2014/SICK_test_annotated.txt")
const runFile = path.join(root, "examples/sick2014/submissions/MeaningFactory_run1primary.txt")
const built = path.join(root, "apps/cli/dist/stseval.mjs")

const stsbGold = path.resolve(root, "../shared/data/stsbenchmark/sts-test.csv")

/**
 * 1,000 STS-B test runs (gold + seeded uniform noise, clipped to 0-5) in a temp folder, for one
 * `stseval rank` call. Returns the folder; the caller removes it.
 */
const stsbRuns = (count: number): string => {
  const gold = StsBenchmark.parse(Text.decode(fs.readFileSync(stsbGold), stsbGold).value).value.rows.map((r) => r.score)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-bench-"))
  let state = 7
  const uniform = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32)
  for (let k = 0; k < count; k++) {
    const noise = 0.5 + (k % 10) / 5
    const scores = gold.map((y) => Math.min(5, Math.max(0, y + (uniform() - 0.5) * 2 * noise)))
    fs.writeFileSync(path.join(dir, `Team${String(k).padStart(4, "0")}_run1primary.txt`), Sts.writeOutput(scores))
  }
  return dir
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

const time = (command: string, args: ReadonlyArray<string>, repeats = 5): number => {
  const times: number[] = []
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now()
    const r = spawnSync(command, args, { cwd: root, encoding: "utf8", maxBuffer: 2 ** 30, env: { ...process.env, NO_COLOR: "1" } })
    if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}: ${r.stderr}`)
    times.push((performance.now() - t0) / 1000)
  }
  return median(times)
}

const hasR = (() => {
  try {
    execFileSync("Rscript", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

export const run = () => {
  const rows: Array<Record<string, unknown>> = []
  const score = ["score", "--task", "sick2014", "--gold", gold, runFile, "--json"]
  if (fs.existsSync(built)) rows.push({ name: "stseval score SICK run (bundled CLI, node dist/stseval.mjs)", seconds: time(process.execPath, [built, ...score]), pairs: 4927 })
  rows.push({ name: "stseval score SICK run (from source via tsx)", seconds: time(process.execPath, ["--conditions=@stseval/source", "--import", "tsx", path.join(root, "apps/cli/src/bin.ts"), ...score]), pairs: 4927 })
  if (fs.existsSync(built) && fs.existsSync(stsbGold)) {
    const dir = stsbRuns(1000)
    try {
      rows.push({ name: "stseval rank: 1,000 STS-B test runs in one call (built CLI)", seconds: time(process.execPath, [built, "rank", "--task", "stsb", "--gold", stsbGold, dir, "--json"], 3), runs: 1000, pairs: 1379 })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  } else rows.push({ name: "stseval rank over 1,000 STS-B runs: skipped (needs a build and ../shared/data/stsbenchmark)", seconds: NaN, runs: 1000, pairs: 1379 })
  if (hasR) rows.push({ name: "R: official scorer's computation (Rscript sick_score.R)", seconds: time("Rscript", [path.join(import.meta.dirname, "sick_score.R"), runFile, gold]), pairs: 4927 })
  else rows.push({ name: "R: skipped (no Rscript; apt-get install r-base-core)", seconds: NaN, pairs: 4927 })
  return rows
}
