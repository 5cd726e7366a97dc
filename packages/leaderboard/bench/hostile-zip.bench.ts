/**
 * Issue 31's critical case, measured: `watch --once` (the real engine, STS 2017 with a synthetic
 * gold of 8 pairs a track) on a folder of one good run and `zips` run zips of 7 real files and 990
 * empty entries with 60,000-character names (119 MB each, inside every byte cap before entry names
 * were counted). Reports the wall time, the sizes of the outputs and the peak memory sampled every
 * 100 ms. Figures, never assertions.
 *
 * `pnpm bench hostile` runs one zip (`--fast`: 100 entries); alone, with peak memory measured from
 * outside: `/usr/bin/time -v node --conditions=@stseval/source --import tsx packages/leaderboard/bench/hostile-zip.bench.ts 1 990`
 *
 * @since 0.4.0
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Effect, Layer, References } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import * as Watcher from "../src/Watcher.js"
import * as Fake from "../test/fixtures/fake.js"
import { sts2017Session } from "../test/fixtures/harness.js"
import { outputSizes } from "./outputs.js"

/** The figures of one `watch --once` over a good run and `zips` hostile zips of `entries` long names each. */
export const measure = async (zips: number, entries: number): Promise<Record<string, string | number>> => {
  let state = 7
  const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
  const { goldDir, folder } = sts2017Session("hostile-bench", 8, rand, (g) => ({ Good_run1primary: g.map((v) => `${Math.round((v + rand() - 0.5) * 1000) / 1000}\n`).join("") }))
  const root = path.dirname(folder)
  try {
    const sts2017 = Registry.get("sts2017")!
    const real = sts2017.datasets.map((d) => ({ name: d.run, text: fs.readFileSync(path.join(folder, "Good_run1primary", d.run), "utf8") }))
    const zip = Fake.makeZip([...real, ...Array.from({ length: entries }, (_, i) => ({ name: `${"n".repeat(60_000)}${i}.txt`, text: "" }))])
    const old = new Date(Date.now() - 60_000)
    for (let z = 0; z < zips; z++) {
      const file = path.join(folder, `Evil${z}_run1.zip`)
      fs.writeFileSync(file, zip)
      fs.utimesSync(file, old, old)
    }
    const out = path.join(root, "out")
    let peakRss = 0
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100)
    const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: sts2017, gold: goldDir }), NodeServices.layer)
    const t0 = performance.now()
    const result = await Effect.runPromise(
      Watcher.watch({ folder, out, once: true, settle: 0 }).pipe(Effect.provide(layer), Effect.provideService(References.MinimumLogLevel, "None"), Effect.result)
    )
    const wallMs = performance.now() - t0
    clearInterval(sampler)
    return {
      name: `watch --once, ${zips} zip(s) of ${entries} long names`,
      zipMiB: zip.length / 2 ** 20,
      outcome: result._tag === "Success" ? `${result.success.runs} runs, ${result.success.failed} failed` : `failed: ${String(result.failure.message).slice(0, 200)}`,
      wallMs,
      ...outputSizes(out),
      peakRssMiB: Math.max(peakRss, process.memoryUsage().rss) / 2 ** 20
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

/** @since 0.4.0 */
export const run = async ({ fast }: { readonly fast: boolean }) => [await measure(1, fast ? 100 : 990)]

if (import.meta.url === `file://${process.argv[1]}`) {
  const row = await measure(Number(process.argv[2] ?? 1), Number(process.argv[3] ?? 990))
  process.stdout.write(`${JSON.stringify(row)}\n`)
}
