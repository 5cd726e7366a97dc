/**
 * Watcher benchmark, wired into `pnpm bench` by tooling/bench: the real engine (ScoringAdapter) on a
 * cheap STS-B-like task (single-file runs, a synthetic gold of 200 pairs).
 *
 * 1. 500 runs dropped into the watched folder at once;
 * 2. then 1,000 rapid overwrites of random runs (a burst, 1 ms apart).
 *
 * Checks (throws if violated, so a regression cannot pass as a figure): nothing is lost, and the
 * final leaderboard's figures and ranks equal a one-shot `Engine.score` of the same folder.
 * Measures the latency from a run's last write landing to the leaderboard file showing its score
 * (median, p95; superseded versions are counted, not timed), wall time per phase, and memory
 * (rss / heapUsed, at the end and the peak sampled every 100 ms). Bounded: 100 s per phase.
 *
 * @since 0.1.0
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import type { Submissions } from "@stseval/formats"
import { Engine } from "@stseval/scoring"
import { Effect, Fiber, Layer, References } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Leaderboard } from "../src/Leaderboard.js"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import * as Watcher from "../src/Watcher.js"
import * as Synthetic from "../test/fixtures/synthetic.js"

export interface BenchRow {
  readonly name: string
  readonly [key: string]: string | number
}

const RUNS = 500
const UPDATES = 1000
const PAIRS = 200
const PHASE_LIMIT_MS = 100_000

const quantile = (xs: ReadonlyArray<number>, q: number): number => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Runs the load and returns its figures; throws if a result is lost or differs from a one-shot rank.
 * The watcher's load test calls it too (test/load.test.ts).
 *
 * @since 0.1.0
 */
export const run = async ({ runCount = RUNS, updateCount = UPDATES }: { readonly runCount?: number; readonly updateCount?: number } = {}): Promise<Array<BenchRow>> => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-watch-bench-"))
  const folder = path.join(root, "submissions")
  const out = path.join(root, "out")
  fs.mkdirSync(folder)
  const gold = Synthetic.goldScores(PAIRS)
  const goldFile = Synthetic.writeGold(root, gold)
  const edition = { ...Synthetic.edition, runLimit: 1 }
  const context = await Effect.runPromise(Engine.loadContext({ task: edition, gold: goldFile }).pipe(Effect.provide(NodeServices.layer)))

  // The expected official figure of each run's text, scored by the engine (no watcher), before the
  // load starts: the seeds written are 1..runCount, then 1000.. for the updates.
  const textOf = (seed: number) => Synthetic.runScores(gold, seed, 0.5 + (seed % 17) / 10).map((s) => `${s}\n`).join("")
  const seeds = [...Array.from({ length: runCount }, (_, i) => i + 1), ...Array.from({ length: updateCount }, (_, u) => 1000 + u)]
  const expectedBySeed = new Map<number, number | null>()
  await Effect.runPromise(
    Effect.forEach(
      seeds,
      (seed) => {
        const file = path.join(folder, "Expected_run1.txt")
        const sub: Submissions.Submission = {
          meta: { id: "Expected/run1", team: "Expected", run: 1, primary: false, late: false, corrected: false, postDeadline: false },
          path: file,
          kind: "file",
          files: [{ name: "Expected_run1.txt", path: file, bytes: new TextEncoder().encode(textOf(seed)) }],
          issues: []
        }
        return Effect.map(Engine.scoreSubmission(context, sub), (scored) => {
          const o = scored.official[0]?.value
          expectedBySeed.set(seed, o?._tag === "Defined" ? o.value : null)
        })
      },
      { concurrency: 4, discard: true }
    )
  )

  // entry -> { landed: ms of its last write, want: expected figure, done: latency once published }
  const pending = new Map<string, { landed: number; want: number | null }>()
  const latencies: Array<number> = []
  let superseded = 0
  const onPublish = (board: Leaderboard) => {
    const now = performance.now()
    for (const r of board.runs) {
      const p = pending.get(r.entry)
      if (p === undefined) continue
      const value = r.official[0]?.value ?? null
      if (value === p.want) {
        latencies.push(now - p.landed)
        pending.delete(r.entry)
      }
    }
  }

  let peakRss = 0
  let peakHeap = 0
  const sampler = setInterval(() => {
    const m = process.memoryUsage()
    peakRss = Math.max(peakRss, m.rss)
    peakHeap = Math.max(peakHeap, m.heapUsed)
  }, 100)

  const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: edition, gold: goldFile }), NodeServices.layer)
  const fiber = Effect.runFork(
    Watcher.watch({ folder, out, debounce: 200, rescanInterval: 2000, onPublish }).pipe(
      Effect.provide(layer),
      Effect.provideService(References.MinimumLogLevel, "None")
    )
  )
  const rows: Array<BenchRow> = []
  try {
    const statusFile = path.join(out, "status.json")
    const until = async (what: string, check: () => boolean) => {
      const limit = performance.now() + PHASE_LIMIT_MS
      while (!check()) {
        if (performance.now() > limit) throw new Error(`bench: timed out waiting for ${what} (${pending.size} runs not published)`)
        await sleep(10)
      }
    }
    await until("the watcher to start", () => fs.existsSync(statusFile) && (JSON.parse(fs.readFileSync(statusFile, "utf8")) as Watcher.Status).phase === "watching")

    const write = (entry: string, seed: number) => {
      if (pending.has(entry)) superseded++
      fs.writeFileSync(path.join(folder, entry), textOf(seed))
      pending.set(entry, { landed: performance.now(), want: expectedBySeed.get(seed)! })
    }
    const names = Array.from({ length: runCount }, (_, i) => `Team${String(i).padStart(3, "0")}_run1.txt`)

    // Phase 1: every run at once
    let t0 = performance.now()
    names.forEach((n, i) => write(n, i + 1))
    await until("runs published", () => pending.size === 0)
    const drop = { ms: performance.now() - t0, lat: [...latencies] }
    rows.push({ name: `drop ${runCount} runs at once`, runs: runCount, wallMs: drop.ms, latencyMedianMs: quantile(drop.lat, 0.5), latencyP95Ms: quantile(drop.lat, 0.95) })
    latencies.length = 0

    // Phase 2: rapid overwrites of random runs
    let x = 42
    t0 = performance.now()
    superseded = 0
    for (let u = 0; u < updateCount; u++) {
      x = (x * 1103515245 + 12345) % 2147483648
      write(names[x % runCount], 1000 + u)
      await sleep(1)
    }
    await until("updates published", () => pending.size === 0)
    rows.push({
      name: `${updateCount} rapid updates`,
      updates: updateCount,
      superseded,
      wallMs: performance.now() - t0,
      latencyMedianMs: quantile(latencies, 0.5),
      latencyP95Ms: quantile(latencies, 0.95)
    })

    // Nothing lost: the final board equals a one-shot rank of the same folder, once the watcher is idle.
    await until("idle", () => (JSON.parse(fs.readFileSync(statusFile, "utf8")) as Watcher.Status).idle)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as Leaderboard
    const oneShot = await Effect.runPromise(
      Engine.score({ task: edition, gold: goldFile, folder, primaryOnly: false }).pipe(Effect.provide(NodeServices.layer))
    )
    const want = oneShot.ranked.rankings[0].entries.map((e) => `${e.meta.id} ${e.rank} ${e.value._tag === "Defined" ? e.value.value : "-"}`)
    const got = board.rankings[0].entries.map((e) => `${e.id} ${e.rank} ${e.value ?? "-"}`)
    if (board.runs.length !== runCount) throw new Error(`bench: ${board.runs.length} runs on the board, ${runCount} in the folder`)
    if (JSON.stringify(want) !== JSON.stringify(got)) throw new Error("bench: the final leaderboard differs from a one-shot rank of the folder")
    const m = process.memoryUsage()
    rows.push({
      name: "final state",
      runs: board.runs.length,
      equalsOneShot: "yes",
      rssMiB: m.rss / 2 ** 20,
      heapUsedMiB: m.heapUsed / 2 ** 20,
      peakRssMiB: peakRss / 2 ** 20,
      peakHeapUsedMiB: peakHeap / 2 ** 20
    })
  } finally {
    clearInterval(sampler)
    await Effect.runPromise(Fiber.interrupt(fiber))
    fs.rmSync(root, { recursive: true, force: true })
  }
  return rows
}
