/**
 * The watcher under many failing runs (issue 31: 500 runs 18 s, 1,000 53 s, 2,000 145 s before):
 * `watch --once` with the real engine (ScoringAdapter) on the synthetic STS-B-like task, every run a
 * file of 200 lines that are not numbers (50 listed `not-a-number` errors and a closing one each),
 * dropped into the folder before the watcher starts. Reports the wall time, the number of times
 * the board was written, the sizes of the outputs and the peak memory sampled every 100 ms.
 * Figures, never assertions.
 *
 * `pnpm bench failing` runs 500 runs (`--fast`: 100); alone, with peak memory measured from outside:
 * `/usr/bin/time -v node --conditions=@stseval/source --import tsx packages/leaderboard/bench/failing.bench.ts 2000`
 *
 * @since 0.4.0
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer, References } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import * as Watcher from "../src/Watcher.js"
import * as Synthetic from "../test/fixtures/synthetic.js"
import { outputSizes } from "./outputs.js"

const PAIRS = 200

/** The figures of one `watch --once` over `runs` failing runs. */
export const measure = async (runs: number): Promise<Record<string, string | number>> => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-failing-bench-"))
  try {
    const folder = path.join(root, "submissions")
    const out = path.join(root, "out")
    fs.mkdirSync(folder)
    const goldFile = Synthetic.writeGold(root, Synthetic.goldScores(PAIRS))
    const bad = Array.from({ length: PAIRS }, (_, i) => `n/a-${i}\n`).join("")
    const old = new Date(Date.now() - 60_000)
    for (let i = 0; i < runs; i++) {
      const file = path.join(folder, `Team${String(i).padStart(4, "0")}_run1.txt`)
      fs.writeFileSync(file, bad)
      fs.utimesSync(file, old, old)
    }
    let publishes = 0
    let peakRss = 0
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100)
    const edition = { ...Synthetic.edition, runLimit: 1 }
    const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: edition, gold: goldFile }), NodeServices.layer)
    const t0 = performance.now()
    const summary = await Effect.runPromise(
      Watcher.watch({ folder, out, once: true, onPublish: () => publishes++ }).pipe(Effect.provide(layer), Effect.provideService(References.MinimumLogLevel, "None"))
    )
    const wallMs = performance.now() - t0
    clearInterval(sampler)
    if (summary.failed !== runs) throw new Error(`bench: ${summary.failed} failed runs, ${runs} expected`)
    return {
      name: `watch --once, ${runs} failing runs`,
      runs,
      wallMs,
      boardWrites: publishes,
      ...outputSizes(out),
      peakRssMiB: Math.max(peakRss, process.memoryUsage().rss) / 2 ** 20
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

/** @since 0.4.0 */
export const run = async ({ fast }: { readonly fast: boolean }) => [await measure(fast ? 100 : 500)]

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 500)
  const row = await measure(runs)
  process.stdout.write(`${JSON.stringify(row)}\n`)
}
