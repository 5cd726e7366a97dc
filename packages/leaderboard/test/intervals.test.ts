/**
 * `ci` (`stseval watch --ci`): the live leaderboard with an interval on every figure and every rank,
 * through the real engine, on small STS 2017 runs built here (7 tracks x 30 pairs). The numbers
 * must be `Uncertainty.compute` on `Engine.score` of the same runs (the one mapping every output
 * shares; the interval maths itself is checked against an independent implementation in
 * significance's tests), seeded, the same after a restart (cached runs are scored again from
 * their bytes for their aligned scores), and absent from failed runs and from a board without `ci`.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Engine, Style, Uncertainty } from "@stseval/scoring"
import { Effect, Fiber, Layer, References } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import * as Leaderboard from "../src/Leaderboard.js"
import * as BoardPage from "../src/BoardPage.js"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import * as Watcher from "../src/Watcher.js"
import { board, once, sts2017Session, tempDir, waitBoard } from "./fixtures/harness.js"

const sts2017 = Registry.get("sts2017")!
const PAIRS = 30
const CI = { level: 95, resamples: 200, seed: 7 } as const

/** A linear congruential generator of the test's own; noise as the sum of three uniforms (about normal). */
let state = 2017
const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
const normal = () => (rand() + rand() + rand() - 1.5) * 2

// folder -> noise: Ace is far better than the others; Cat_run2 is not primary
const RUNS: ReadonlyArray<readonly [string, number]> = [
  ["Ace_run1primary", 0.1],
  ["Bee_run1primary", 1.4],
  ["Cat_run1primary", 1.5],
  ["Cat_run2", 1.3],
  ["Dog_run1primary", 1.6]
]

const { goldDir, folder } = sts2017Session("intervals", PAIRS, rand, (g) => ({
  ...Object.fromEntries(RUNS.map(([name, sd]) => [name, g.map((v) => `${Math.round((v + sd * normal()) * 1000) / 1000}\n`).join("")])),
  // a run that fails validation: a score that is not a number
  Bad_run1primary: [...g.slice(1).map(String), "oops"].join("\n") + "\n"
}))

const quiet = <A, E>(self: Effect.Effect<A, E>) => Effect.runPromise(self.pipe(Effect.provideService(References.MinimumLogLevel, "None")))
const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: sts2017, gold: goldDir }), NodeServices.layer)
const watch = (out: string, options: Partial<Watcher.WatchOptions> = {}) => quiet(Watcher.watch({ folder, out, once: true, ...options }).pipe(Effect.provide(layer)))
/** The watcher in the background (not once); `stop()` interrupts it as Ctrl-C does. */
const live = (options: Watcher.WatchOptions) => {
  const fiber = Effect.runFork(Watcher.watch(options).pipe(Effect.provide(layer), Effect.provideService(References.MinimumLogLevel, "None")))
  return { stop: () => Effect.runPromise(Fiber.interrupt(fiber)) }
}

const outs = { ci: tempDir("ci-a"), again: tempDir("ci-b"), seed: tempDir("ci-seed"), plain: tempDir("ci-none") }
let first: Leaderboard.Leaderboard
let expected: Uncertainty.ResultIntervals
beforeAll(async () => {
  await Promise.all([watch(outs.ci, { ci: CI }), watch(outs.again, { ci: CI }), watch(outs.seed, { ci: { ...CI, seed: 8 } }), watch(outs.plain)])
  first = board(outs.ci)!
  // the same runs through the one-shot engine and the one mapping (every run ranked, as the board ranks them)
  const results = await quiet(Engine.score({ task: sts2017, gold: goldDir, folder, primaryOnly: false }).pipe(Effect.provide(NodeServices.layer)))
  const iv = Uncertainty.compute(results, { level: 0.95, resamples: CI.resamples, seed: CI.seed, others: false })
  if (Uncertainty.isError(iv)) throw iv
  expected = iv
}, 60_000)

const official = (b: Leaderboard.Leaderboard) => b.rankings.find((r) => r.ranking === "official")!

describe("watch with ci: an interval on every figure and every rank", () => {
  it("every scored run's figures carry an interval around them, every ranked entry a rank interval; the settings and signature once", () => {
    expect(first.counts).toMatchObject({ runs: 6, scored: 5, failed: 1, ranked: 5 })
    expect(first.intervals).toMatchObject({ method: "percentile-bootstrap", level: 0.95, resamples: CI.resamples, seed: CI.seed })
    for (const run of first.runs.filter((r) => r.status === "scored")) {
      expect(run.datasets).toHaveLength(sts2017.datasets.length)
      for (const f of [...run.official, ...run.datasets]) {
        expect(f.ci?.level).toBe(0.95)
        expect(f.ci!.low).toBeLessThanOrEqual(f.value!)
        expect(f.ci!.high).toBeGreaterThanOrEqual(f.value!)
      }
    }
    for (const e of official(first).entries.filter((x) => x.rank !== null)) {
      expect(e.rankInterval!.low).toBeLessThanOrEqual(e.rank!)
      expect(e.rankInterval!.high).toBeGreaterThanOrEqual(e.rank!)
    }
  })

  it("a run far better than the others has rank interval [1, 1] and is alone in the best group", () => {
    expect(official(first).entries[0]).toMatchObject({ id: "Ace/run1", rank: 1, rankInterval: { low: 1, high: 1 }, overlapsBest: true })
    expect(official(first).bestGroup).toEqual(["Ace/run1"])
    expect(official(first).entries.slice(1).every((e) => e.rankInterval === undefined || e.rankInterval.low > 1)).toBe(true)
  })

  it("a failed run gets no interval and no rank", () => {
    const bad = first.runs.find((r) => r.id === "Bad/run1")!
    expect(bad.status).toBe("failed")
    const entry = official(first).entries.find((e) => e.id === "Bad/run1")!
    expect(entry.rank).toBeNull()
    for (const key of ["ci", "ciReason", "rankInterval", "overlapsBest"]) expect(entry).not.toHaveProperty(key)
    for (const f of [...bad.official, ...bad.datasets]) expect(f).not.toHaveProperty("ci")
    expect(official(first).bestGroup).not.toContain("Bad/run1")
  })

  it("the numbers are Uncertainty.compute on Engine.score of the same runs", () => {
    expect(first.intervals!.signature).toBe(expected.signatureText)
    expect(official(first).bestGroup).toEqual(Uncertainty.bestGroup(expected, "official"))
    let compared = 0
    for (const e of official(first).entries) {
      const ri = Uncertainty.runIntervals(expected, "official", e.id)
      if (e.id === "Bad/run1") continue
      expect(e.ci).toEqual(ri?.official.ci)
      expect(e.rankInterval).toEqual(ri?.rankInterval)
      const run = first.runs.find((r) => r.id === e.id)!
      expect(run.official[0].ci).toEqual(Uncertainty.aggregateFigure(expected, e.id, "official")?.ci)
      // each track's 30 pairs are fewer than 100: its interval says how many (issue 24)
      for (const d of run.datasets) expect(d.ci).toEqual({ ...Uncertainty.datasetFigure(expected, e.id, d.dataset, "pearson")?.ci, fewPairs: PAIRS })
      compared++
    }
    expect(compared).toBe(5)
  })

  it("the same seed gives the same leaderboard, byte for byte; another seed other intervals", () => {
    const read = (out: string) => fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")
    expect(read(outs.again)).toBe(read(outs.ci))
    const other = board(outs.seed)!
    expect(other.intervals!.seed).toBe(8)
    expect(other.intervals!.signature).not.toBe(first.intervals!.signature)
    expect(official(other).entries[1].ci).not.toEqual(official(first).entries[1].ci)
  })

  it("survives a restart: a second session, every run from the cache, gives the same intervals", async () => {
    const summary = await watch(outs.ci, { ci: CI })
    expect(summary).toMatchObject({ scoredThisSession: 0, cacheHits: 6 })
    const second = board(outs.ci)!
    expect(second.intervals).toEqual(first.intervals)
    expect(second.rankings).toEqual(first.rankings)
    expect(second.runs.map((r) => [r.id, r.official, r.datasets])).toEqual(first.runs.map((r) => [r.id, r.official, r.datasets]))
  })

  it("without ci nothing changes: the same board less the intervals", () => {
    const plain = board(outs.plain)!
    const text = fs.readFileSync(path.join(outs.plain, "leaderboard.json"), "utf8")
    for (const key of ["intervals", "ci", "rankInterval", "overlapsBest", "bestGroup"]) expect(text).not.toContain(`"${key}"`)
    const strip = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(strip)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(
              Object.entries(v).filter(([k]) => !["intervals", "ci", "ciReason", "degenerate", "rankInterval", "overlapsBest", "bestGroup"].includes(k)).map(([k, x]) => [k, strip(x)])
            )
          : v
    expect(strip(first)).toEqual(plain)
  })

  it("the hidden phase's public view shows no intervals", () => {
    expect(Leaderboard.publicView(first, true)).not.toHaveProperty("intervals")
    expect(Leaderboard.publicView(first, false).intervals).toEqual(first.intervals)
  })
})

describe("watching with ci", () => {
  it("a run removed: the intervals are computed again over the runs left, as a once run of the folder gives them; the same after a restart", async () => {
    const mine = tempDir("ci-live")
    fs.cpSync(folder, mine, { recursive: true })
    const out = tempDir("ci-live-out")
    const options = { folder: mine, out, ci: CI, debounce: 20, rescanInterval: 200 }
    let w = live(options)
    try {
      await waitBoard(out, "the first board with intervals", (b) => b.runs.length === 6 && b.intervals !== undefined, 20_000)
      fs.rmSync(path.join(mine, "Dog_run1primary"), { recursive: true })
      const after = await waitBoard(out, "the board without Dog, with intervals", (b) => b.runs.length === 5 && b.intervals !== undefined, 20_000)
      const fresh = tempDir("ci-live-once")
      await quiet(Watcher.watch({ folder: mine, out: fresh, once: true, ci: CI }).pipe(Effect.provide(layer)))
      expect(after.rankings).toEqual(board(fresh)!.rankings)
      // four runs ranked now: no rank interval reaches 5
      const ranked = official(after).entries.filter((e) => e.rank !== null)
      expect(ranked).toHaveLength(4)
      expect(ranked.every((e) => e.rankInterval !== undefined && e.rankInterval.high <= 4)).toBe(true)
      await w.stop()
      // restart while watching: the board comes back from the cache, then with its intervals
      w = live(options)
      const again = await waitBoard(out, "the restored board with intervals", (b, s) => s.phase === "watching" && b.intervals !== undefined, 20_000)
      expect(again.rankings).toEqual(after.rankings)
    } finally {
      await w.stop()
    }
  }, 60_000)
})

describe("resamples this machine cannot hold (issue 22)", () => {
  // sts2017: 7 datasets and 1 ranking, 8 figures a run (Uncertainty.figuresOf)
  const perRun = Uncertainty.figuresOf({ edition: sts2017, runs: [undefined] })
  // the machine's memory as the check reads it (os.totalmem, looked up at each check), made 1 GiB
  // here so that the cases do not depend on the machine that runs the tests
  const os = process.getBuiltinModule("node:os")
  const totalmem = os.totalmem
  beforeEach(() => {
    os.totalmem = () => 2 ** 30
  })
  afterEach(() => {
    os.totalmem = totalmem
  })

  it("not even one run's figures fit: refused before the watcher starts, naming ci and the most that fit", async () => {
    const out = tempDir("ci-refused")
    // 10,000,000 x 8 figures x 16 bytes: 1.2 GiB for one run, more than half of 1 GiB
    const exit = await Effect.runPromiseExit(
      Watcher.watch({ folder, out, once: true, ci: { level: 95, resamples: 10_000_000 } }).pipe(Effect.provide(layer), Effect.provideService(References.MinimumLogLevel, "None"))
    )
    expect(exit._tag).toBe("Failure")
    expect(String(exit._tag === "Failure" ? exit.cause : "")).toContain(`ci: 10000000 resamples of ${perRun} figures (runs times their datasets and rankings) need about 1.2 GiB`)
    // nothing was written: the settings are checked before the output folder is touched
    expect(fs.readdirSync(out)).toEqual([])
  })

  it("enough for one run, not for the five scored: the board is published without intervals and the watcher says why, instead of crashing", async () => {
    const out = tempDir("ci-beyond")
    // exactly what one run's figures may take (half of 1 GiB): five runs need five times that
    const resamples = Math.floor(2 ** 29 / (16 * perRun))
    await watch(out, { ci: { level: 95, resamples, seed: 7 } })
    const b = board(out)!
    expect(b.counts).toMatchObject({ scored: 5, ranked: 5 })
    expect(b.intervals).toBeUndefined()
    const log = fs.readFileSync(path.join(out, "watch.log"), "utf8")
    expect(log).toContain(`no intervals on the leaderboard: ci: ${resamples} resamples of ${5 * perRun} figures (runs times their datasets and rankings) need about`)
  })
})

describe("the pages with ci", () => {
  it("tables' renderer: a Rank range column, error bars and the signature, no ≈ on the best itself", () => {
    const md = fs.readFileSync(path.join(outs.ci, "leaderboard.md"), "utf8")
    expect(md).toContain("Rank range")
    // the best run alone in its group: no ≈ on it (issue 32)
    expect(md).toMatch(/\| Ace\/run1 /)
    expect(md).not.toContain("≈")
    expect(md).toContain("95% percentile bootstrap over the pairs")
    const html = fs.readFileSync(path.join(outs.ci, "leaderboard.html"), "utf8")
    // the official figure and 7 tracks of each of the 5 scored runs
    expect(html.match(/<svg class="ci"/g)?.length).toBe(8 * 5)
    expect(html).toContain(first.intervals!.signature)
    expect(fs.readFileSync(path.join(outs.plain, "leaderboard.html"), "utf8")).not.toContain('<svg class="ci"')
  })

  it("BoardPage.markdown and BoardPage.html (the tables' renderers): the rank range, ≈ and each figure in the edition's number style; HTML draws each interval", () => {
    const md = BoardPage.markdown(first, sts2017)
    const ace = official(first).entries[0]
    const style = Style.correlation(sts2017)
    // STS 2017 prints r x 100 to 2 decimals; the best ranked figure has the bullet, and the bold of the
    // board's marks, and no ≈ on itself; its interval rests on 7 x 30 = 210 pairs: no ‡ there
    expect(md).toMatch(new RegExp(`\\| Ace/run1 +\\| Ace +\\| +yes +\\| +1 \\| +1 \\| +\\*\\*${Style.format(ace.value!, style).replace(".", "\\.")}\\*\\* • \\|`))
    expect(md).toContain(first.intervals!.signature.replaceAll("|", "\\|"))
    const html = BoardPage.html(first, sts2017)
    expect(html).toContain(">Rank range</button>")
    expect(html).toContain(`interval [${Style.format(ace.ci!.low, style)}, ${Style.format(ace.ci!.high, style)}]`)
    expect(BoardPage.markdown(board(outs.plain)!, sts2017)).not.toContain("Rank range")
  })

  it("a track's interval rests on 30 pairs: ‡ after its figure in Markdown and HTML, with the footnote (issue 32), as report --ci prints it", () => {
    const md = BoardPage.markdown(first, sts2017)
    const ace = first.runs.find((r) => r.id === "Ace/run1")!.datasets.find((d) => d.dataset === "track5.en-en")!
    const style = Style.correlation(sts2017)
    expect(ace.ci).toMatchObject({ fewPairs: PAIRS })
    expect(md).toContain(`${Style.format(ace.value!, style)}\u2021`)
    expect(md).toContain("\u2021 an interval on fewer than 100 pairs")
    const html = BoardPage.html(first, sts2017)
    expect(html).toContain(`${Style.format(ace.value!, style)}<sup class="mark few" title="interval on 30 pairs`)
    // without intervals, no mark
    expect(BoardPage.markdown(board(outs.plain)!, sts2017)).not.toContain("\u2021")
  })
})

describe("ci's settings", () => {
  it("a bad level, resample count or seed, or a scorer without aligned scores: a WatchError naming it, nothing written", async () => {
    const cases: ReadonlyArray<readonly [Watcher.WatchOptions["ci"], RegExp, boolean]> = [
      [100, /ci: expected a confidence level in percent, from 1 up to \(not including\) 100 .*, found 100/, true],
      [{ level: 95, resamples: 40 }, /ci: resamples: expected at least 41 for a 95% interval.*found 40/, true],
      [{ level: 95, resamples: 0 }, /ci: resamples: expected .*found 0/, true],
      [{ level: 0.9, seed: -1 }, /ci: seed: expected .*found -1/, true],
      // the fake engine of the other tests gives no ScoredRun
      [95, /ci: this scorer gives no aligned scores/, false]
    ]
    for (const [ci, message, real] of cases) {
      const out = tempDir("ci-bad")
      const result = real ? watch(out, { ci }) : once({ folder, out, ci })
      await expect(result).rejects.toThrow(message)
      expect(fs.existsSync(path.join(out, "leaderboard.json"))).toBe(false)
    }
  })
})
