/**
 * The first scan's runs scored together (issue 36): a scorer that scores runs together
 * (`ScorerShape.scoreBatch`, the engine's `scoreSubmissions`) gets the runs settled so far in a
 * few calls, not one call per run; each run keeps its own outcome, and a run cached under the same
 * key is not scored again.
 */
import * as fs from "node:fs"
import { syncBuiltinESMExports } from "node:module"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Fiber, FileSystem, Layer, References } from "effect"
import { describe, expect, it } from "vitest"
import * as Cache from "../src/Cache.js"
import * as Watcher from "../src/Watcher.js"
import * as Fake from "./fixtures/fake.js"
import { board, cacheEntries, once, tempDir, waitBoard } from "./fixtures/harness.js"

const RUNS = 30
const REVERSED = [...Fake.GOLD].reverse()

/** RUNS runs: the gold itself (r = 1) for even numbers, the gold reversed for odd ones, and one that is no run. */
const folderOfRuns = () => {
  const folder = tempDir("batch")
  for (let k = 0; k < RUNS; k++) fs.writeFileSync(path.join(folder, `T${String(k).padStart(2, "0")}_run1.txt`), Fake.runText(k % 2 === 0 ? Fake.GOLD : REVERSED))
  fs.writeFileSync(path.join(folder, "Bad_run1.txt"), "1\n2\nthree\n")
  return folder
}

describe("the first scan, scored in batches", () => {
  it("hands the scorer the folder's runs in a few calls, each run with its own outcome", async () => {
    const folder = folderOfRuns()
    const out = tempDir("batch-out")
    const batches: Array<ReadonlyArray<string>> = []
    const singles: Array<string> = []
    const summary = await once({ folder, out }, { batches, singles })
    expect(summary).toMatchObject({ runs: RUNS + 1, scored: RUNS, failed: 1, scoredThisSession: RUNS + 1, cacheHits: 0 })
    // every run once, and not one call per run (one per run: 31 calls)
    expect(batches.flat().sort()).toEqual(fs.readdirSync(folder).sort())
    expect(batches.length).toBeLessThanOrEqual(10)
    expect(singles).toEqual([])
    const b = board(out)!
    const value = (entry: string) => b.runs.find((r) => r.entry === entry)!.official[0]?.value
    expect(value("T00_run1.txt")).toBeCloseTo(1, 12)
    expect(value("T01_run1.txt")).toBeCloseTo(Fake.pearson(REVERSED, Fake.GOLD), 12)
    const bad = b.runs.find((r) => r.entry === "Bad_run1.txt")!
    expect(bad.status).toBe("failed")
    expect(bad.errors[0]).toMatchObject({ code: "not-a-number", line: 3 })
  })

  it("a run already scored under the same key is not scored again: a second start scores nothing", async () => {
    const folder = folderOfRuns()
    const out = tempDir("batch-again-out")
    await once({ folder, out }, { batches: [] })
    const before = fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")
    const batches: Array<ReadonlyArray<string>> = []
    const summary = await once({ folder, out }, { batches })
    expect(summary).toMatchObject({ runs: RUNS + 1, scoredThisSession: 0, cacheHits: RUNS + 1 })
    expect(batches).toEqual([])
    expect(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")).toBe(before)
  })

  it("a run whose content changed is scored again, alone in its batch; the others come from the cache", async () => {
    const folder = folderOfRuns()
    const out = tempDir("batch-changed-out")
    await once({ folder, out }, { batches: [] })
    fs.writeFileSync(path.join(folder, "T03_run1.txt"), Fake.runText(Fake.GOLD))
    const batches: Array<ReadonlyArray<string>> = []
    const summary = await once({ folder, out }, { batches })
    expect(summary).toMatchObject({ scoredThisSession: 1, cacheHits: RUNS })
    expect(batches).toEqual([["T03_run1.txt"]])
    expect(board(out)!.runs.find((r) => r.entry === "T03_run1.txt")!.official[0]?.value).toBeCloseTo(1, 12)
  })
})

describe("the first scan's file-system calls", () => {
  it("with file-system events on, a run.json its settling did not find beside a run is not looked for again when the run is read", async () => {
    const folder = tempDir("stats")
    const out = tempDir("stats-out")
    for (let k = 0; k < 5; k++) fs.writeFileSync(path.join(folder, `T${k}_run1.txt`), Fake.runText(Fake.GOLD))
    // one run with its run.json: that one is read
    fs.writeFileSync(path.join(folder, "T0_run1.run.json"), JSON.stringify({ team: "Zeta" }))
    // every stat of a run.json, through Effect's file system (the signatures) or Node's (the
    // formats' reading of a run), `syncBuiltinESMExports` giving the modules that import
    // `node:fs/promises` the counting one
    const looked: Array<string> = []
    const note = (p: unknown) => {
      if (typeof p === "string" && p.endsWith(".run.json")) looked.push(path.basename(p))
    }
    const realStat = fs.promises.stat
    fs.promises.stat = ((p: fs.PathLike, options?: fs.StatOptions) => (note(p), realStat(p, options))) as typeof fs.promises.stat
    syncBuiltinESMExports()
    const counting = Layer.effect(FileSystem.FileSystem)(
      Effect.map(FileSystem.FileSystem, (real) => ({
        ...real,
        stat: (p: string) => (note(p), real.stat(p))
      }))
    ).pipe(Layer.provide(NodeServices.layer))
    const fiber = Effect.runFork(
      Watcher.watch({ folder, out, settle: 0 }).pipe(
        Effect.provideService(References.MinimumLogLevel, "None"),
        Effect.provide(Layer.mergeAll(Fake.layer(), counting)),
        Effect.provide(NodeServices.layer)
      )
    )
    try {
      const b = await waitBoard(out, "the five runs", (b, s) => s.phase === "watching" && b.runs.length === 5)
      expect(b.runs.find((r) => r.entry === "T0_run1.txt")!.team).toBe("Zeta")
      expect(looked).toContain("T0_run1.run.json")
      // the folder's listing found the one run.json: no look for the others' (before: two a run)
      expect(looked.filter((n) => n !== "T0_run1.run.json")).toEqual([])
    } finally {
      fs.promises.stat = realStat
      syncBuiltinESMExports()
      await Effect.runPromise(Fiber.interrupt(fiber))
    }
  })
})

describe("a batch's writes", () => {
  it("its runs' lines go to watch.log in one append, not one each (each line still there)", async () => {
    const folder = folderOfRuns()
    const out = tempDir("batch-log-out")
    const appends: Array<string> = []
    const batches: Array<ReadonlyArray<string>> = []
    const summary = await once({ folder, out }, { batches }, (real) => ({
      writeFileString: (p, data, options) => {
        if (path.basename(p) === "watch.log") appends.push(data)
        return real.writeFileString(p, data, options)
      }
    }))
    expect(summary.scoredThisSession).toBe(RUNS + 1)
    const log = fs.readFileSync(path.join(out, "watch.log"), "utf8")
    for (const name of fs.readdirSync(folder)) expect(log).toContain(`${name}: ${name === "Bad_run1.txt" ? "failed" : "scored"} in `)
    // one append per batch for its runs, plus the lines that stand alone (watching, done)
    expect(appends.length).toBeLessThanOrEqual(batches.length + 2)
  })

  it("its runs' cache entries are written in one file per batch, not one each (each entry still there)", async () => {
    const folder = folderOfRuns()
    const out = tempDir("batch-cache-out")
    // every file written into cache/ other than a scoring journal: a cache entry's (its temp file)
    const written: Array<string> = []
    const batches: Array<ReadonlyArray<string>> = []
    const summary = await once({ folder, out }, { batches }, (real) => ({
      writeFile: (p, data, options) => {
        if (path.basename(path.dirname(p)) === "cache" && !p.includes(".scoring.")) written.push(p)
        return real.writeFile(p, data, options)
      }
    }))
    expect(summary.scoredThisSession).toBe(RUNS + 1)
    // (before: one file a run, 31)
    expect(written.length).toBeGreaterThan(0)
    expect(written.length).toBeLessThanOrEqual(batches.length)
    const entries = cacheEntries(out)
    expect(new Set(entries.map((e) => e.entry.key)).size).toBe(RUNS + 1)
    expect(entries.every((e) => e.file.endsWith(Cache.BATCH_SUFFIX))).toBe(true)
    // and a restart takes every run from them
    const again = await once({ folder, out }, { batches: [] })
    expect(again).toMatchObject({ scoredThisSession: 0, cacheHits: RUNS + 1 })
  })
})

describe("the cache's batch files", () => {
  /**
   * The folder scored once by a batch scorer: its cache holds batch files of every run, as many as
   * the first scan made batches (the runs settled by the time a batch is taken: one or a few), and
   * `file`, the one of the most entries, and their number `m`.
   */
  const scored = async (label: string) => {
    const folder = folderOfRuns()
    const out = tempDir(label)
    expect(await once({ folder, out }, { batches: [] })).toMatchObject({ scoredThisSession: RUNS + 1 })
    const entries = cacheEntries(out)
    expect(entries.every((e) => e.file.endsWith(Cache.BATCH_SUFFIX))).toBe(true)
    const files = [...new Set(entries.map((e) => e.file))]
    const m = (f: string) => entries.filter((e) => e.file === f).length
    const file = files.reduce((a, b) => (m(b) > m(a) ? b : a))
    expect(m(file)).toBeGreaterThanOrEqual(4)
    return { folder, out, file, files, m: m(file) }
  }
  /** Each entry of `file` whose index `spoil` picks replaced by a line of its key that is no entry. */
  const spoilLines = (file: string, spoil: (i: number) => boolean) => {
    const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "")
    fs.writeFileSync(file, lines.map((l, i) => (spoil(i) ? `{"key":"${(JSON.parse(l) as { key: string }).key}","task":1}` : l) + "\n").join(""))
  }

  it("a cache of the previous version (one file a run) is still used: a restart scores nothing", async () => {
    const { folder, out, files } = await scored("batch-old-cache")
    for (const { entry } of cacheEntries(out)) fs.writeFileSync(path.join(out, "cache", `${entry.key}.json`), JSON.stringify(entry))
    for (const f of files) fs.rmSync(f)
    expect(await once({ folder, out }, { batches: [] })).toMatchObject({ scoredThisSession: 0, cacheHits: RUNS + 1 })
  })

  it("an entry written again is the newer file's: the older file's other entries stay valid", async () => {
    const { folder, out, file, files } = await scored("batch-newer")
    spoilLines(file, (i) => i === 0)
    // the spoiled entry is dropped and its run scored again, the others taken from the files
    expect(await once({ folder, out }, { batches: [] })).toMatchObject({ scoredThisSession: 1, cacheHits: RUNS })
    expect(fs.existsSync(file)).toBe(true)
    expect(new Set(cacheEntries(out).map((e) => e.file)).size).toBe(files.length + 1)
    expect(await once({ folder, out }, { batches: [] })).toMatchObject({ scoredThisSession: 0, cacheHits: RUNS + 1 })
  })

  it("a file whose entries were all written again is removed", async () => {
    const { folder, out, file, m } = await scored("batch-superseded")
    spoilLines(file, () => true)
    expect(await once({ folder, out }, { batches: [] })).toMatchObject({ scoredThisSession: m, cacheHits: RUNS + 1 - m })
    expect(fs.existsSync(file)).toBe(false)
    expect(cacheEntries(out)).toHaveLength(RUNS + 1)
  })

  it("a file with most of its entries written again is compacted at the next start: its live entries in a new file", async () => {
    const { folder, out, file, m } = await scored("batch-compact")
    const spoiled = Math.ceil(m * 0.75)
    spoilLines(file, (i) => i < spoiled)
    expect(await once({ folder, out }, { batches: [] })).toMatchObject({ scoredThisSession: spoiled, cacheHits: RUNS + 1 - spoiled })
    expect(fs.existsSync(file)).toBe(true)
    expect(await once({ folder, out }, { batches: [] })).toMatchObject({ scoredThisSession: 0, cacheHits: RUNS + 1 })
    expect(fs.existsSync(file)).toBe(false)
    // each run's entry once, none stale
    const keys = cacheEntries(out).map((e) => e.entry.key)
    expect(keys).toHaveLength(RUNS + 1)
    expect(new Set(keys).size).toBe(RUNS + 1)
  })

  it("a batch file larger than Cache.MAX_BATCH_BYTES is not read: its runs are scored again and it goes", async () => {
    const { folder, out, file, m } = await scored("batch-too-large")
    fs.appendFileSync(file, " ".repeat(Cache.MAX_BATCH_BYTES))
    expect(await once({ folder, out }, { batches: [] })).toMatchObject({ scoredThisSession: m, cacheHits: RUNS + 1 - m })
    expect(fs.existsSync(file)).toBe(false)
  })
})
