/**
 * Each run scored in isolation, under a budget (issue 22): a run over its time or memory budget, or
 * one that crashes its scorer, fails with that reason, listed and never ranked, while the other
 * runs are scored; a folder is read a few runs at a time.
 *
 * Most tests run a scorer that misbehaves on cue (tooling/vitest-config/misbehaving-scorer.mjs: a run named
 * LOOP computes forever, ALLOC or HEAP grows without end, EXIT ends the thread, HOLD notes when it
 * runs), so that they take the budget's time and no more; the others run the real scorer.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { execFileSync } from "node:child_process"
import * as diagnostics from "node:diagnostics_channel"
import { EventEmitter } from "node:events"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import type { Worker } from "node:worker_threads"
import { Registry, Submissions } from "@stseval/formats"
import { Engine, Isolation } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
import { Effect } from "effect"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { underTimeout } from "../src/internal/inThread.js"
import { goldDecoder } from "../src/internal/protocol.js"
import type { FromWorker, Outcome } from "../src/internal/protocol.js"
import { repoRoot } from "./helpers.js"

const gold = path.join(repoRoot, "examples/sick2014/SICK_test_annotated.txt")
const realRun = path.join(repoRoot, "examples/sick2014/submissions/MeaningFactory_run1primary.txt")
const misbehaving = path.join(repoRoot, "tooling/vitest-config/misbehaving-scorer.mjs")
// the scorer Vitest's global setup built for this test run (tooling/vitest-config/scorer.js), the engine's in every test
const builtScorer = process.env.STSEVAL_TEST_SCORER!

const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `stseval-isolation-${name}-`))

// These tests are of the isolated scorers: every run is sent to one (`inThreadMb: 0`), however small;
// the runs scored on the engine's own thread are tested at the end.
const score = (options: Omit<Engine.ScoreOptions, "task" | "gold">) =>
  Effect.runPromise(Engine.score({ task: "sick2014", gold, ...options, isolation: { inThreadMb: 0, ...options.isolation } }).pipe(Effect.provide(NodeServices.layer)))

/** A submissions folder holding a copy of a real SICK run under each name. */
const folderOf = (names: ReadonlyArray<string>) => {
  const dir = tempDir("runs")
  for (const n of names) fs.copyFileSync(realRun, path.join(dir, n))
  return dir
}

/**
 * The threads the engine starts from now on, seen through Node's `worker_threads` diagnostics
 * channel (published as each is made, so the engine's own code is no different under test), and
 * the jobs each answered; `stop` ends the watch.
 */
const scorersStarted = () => {
  const workers: Array<Worker> = []
  const answered = new Map<Worker, Array<number>>()
  const onWorker = (message: unknown) => {
    const worker = (message as { readonly worker: Worker }).worker
    const jobs: Array<number> = []
    workers.push(worker)
    answered.set(worker, jobs)
    // listened to before the engine unrefs it (its listeners ref a worker again)
    worker.on("message", (m: FromWorker) => {
      if (m.type === "done") jobs.push(m.job)
    })
  }
  diagnostics.subscribe("worker_threads", onWorker)
  return { workers, jobs: (i: number) => answered.get(workers[i])!, stop: () => diagnostics.unsubscribe("worker_threads", onWorker) }
}

const byTeam = (runs: ReadonlyArray<ScoredRun.ScoredRun>, team: string) => runs.find((r) => r.meta.team === team)!

const ranked = (results: Engine.Results) => results.ranked.rankings.flatMap((r) => r.entries.filter((e) => e.rank != null).map((e) => e.meta.team))

describe("a run over its budget fails with that reason; the other runs are scored", () => {
  // where HOLD runs are noted; set before any scorer starts (a worker copies the environment when made)
  const log = path.join(tempDir("log"), "log.txt")
  process.env.STSEVAL_TEST_SCORER_LOG = log
  const saved = process.env.STSEVAL_REAL_SCORER
  beforeEach(() => {
    // the scorer built for this test run (tooling/vitest-config/scorer.js) serves every run without a cue
    process.env.STSEVAL_REAL_SCORER = builtScorer
    Isolation.useEntry(pathToFileURL(misbehaving))
  })
  afterEach(() => {
    Isolation.useEntry(pathToFileURL(builtScorer))
    process.env.STSEVAL_REAL_SCORER = saved
  })

  it("a run that computes forever is stopped at the time budget, in the middle of its loop", async () => {
    const results = await score({ folder: folderOf(["Good_run1primary.txt", "LOOP_run1primary.txt", "Other_run1primary.txt"]), isolation: { budget: { timeMs: 2_000 } } })
    const loop = byTeam(results.runs, "LOOP")
    expect(loop.status).toBe("failed")
    expect(loop.failure).toBe("over the time budget: not scored within 2 s")
    expect(loop.errors.map((e) => e.code)).toEqual(["over-budget"])
    // the scorer that was ended is replaced: the runs after it are scored
    expect(byTeam(results.runs, "Good").status).toBe("scored")
    expect(byTeam(results.runs, "Other").status).toBe("scored")
    expect(ranked(results)).not.toContain("LOOP")
    expect(ranked(results)).toContain("Other")
  })

  it("a run whose scorer holds more than the memory budget outside the heap (array buffers) is stopped", async () => {
    const results = await score({ folder: folderOf(["ALLOC_run1primary.txt", "Good_run1primary.txt"]), isolation: { budget: { memoryMb: 96 } } })
    const alloc = byTeam(results.runs, "ALLOC")
    expect(alloc.status).toBe("failed")
    expect(alloc.failure).toMatch(/^over the memory budget: its scorer held \d+ MB, more than the 96 MB allowed$/)
    expect(alloc.errors.map((e) => e.code)).toEqual(["over-budget"])
    expect(byTeam(results.runs, "Good").status).toBe("scored")
  })

  it("a run that fills the JavaScript heap is stopped at the memory budget", async () => {
    const results = await score({ folder: folderOf(["HEAP_run1primary.txt", "Good_run1primary.txt"]), isolation: { budget: { memoryMb: 64 } } })
    const heap = byTeam(results.runs, "HEAP")
    expect(heap.status).toBe("failed")
    expect(heap.failure).toMatch(/^over the memory budget/)
    expect(byTeam(results.runs, "Good").status).toBe("scored")
  })

  it("a folder of more small runs than the engine's thread takes (16) sends them to scorers, under their budget", async () => {
    const names = [...Array.from({ length: 16 }, (_, i) => `T${String(i).padStart(2, "0")}_run1primary.txt`), "LOOP_run1primary.txt"]
    // the default: no inThreadMb given (the scorer that loops on cue is only reached in a scorer)
    const results = await Effect.runPromise(
      Engine.score({ task: "sick2014", gold, folder: folderOf(names), isolation: { budget: { timeMs: 2_000 } } }).pipe(Effect.provide(NodeServices.layer))
    )
    expect(byTeam(results.runs, "LOOP").failure).toBe("over the time budget: not scored within 2 s")
    expect(results.runs.filter((r) => r.status === "scored")).toHaveLength(16)
  })

  it("a run that crashes its scorer fails saying so; the process goes on", async () => {
    const results = await score({ folder: folderOf(["EXIT_run1primary.txt", "Good_run1primary.txt"]) })
    const crashed = byTeam(results.runs, "EXIT")
    expect(crashed.status).toBe("failed")
    expect(crashed.failure).toBe("the scorer ended unexpectedly (exit code 3)")
    expect(crashed.errors.map((e) => e.code)).toEqual(["scorer-crashed"])
    expect(byTeam(results.runs, "Good").status).toBe("scored")
  })

  it("small runs are sent in batches; one that computes forever fails alone, the others of its batch are scored on their own", async () => {
    const names = Array.from({ length: 24 }, (_, i) => `T${String(i).padStart(2, "0")}_run1primary.txt`)
    names[9] = "LOOP_run1primary.txt"
    fs.writeFileSync(log, "")
    const results = await score({ folder: folderOf(names), isolation: { budget: { timeMs: 1_500 } } })
    const loop = byTeam(results.runs, "LOOP")
    expect(loop.failure).toBe("over the time budget: not scored within 1.5 s")
    expect(results.runs.filter((r) => r.status === "scored")).toHaveLength(23)
    // (two rankings: relatedness and entailment)
    expect(new Set(ranked(results)).size).toBe(23)
    expect(ranked(results)).not.toContain("LOOP")
    const jobs = fs.readFileSync(log, "utf8").trim().split("\n").filter((l) => l.startsWith("job ")).map((l) => l.slice(4).split(","))
    // the LOOP run was sent with others, then alone, as was each run of its batch not answered
    const batch = jobs.find((j) => j.length > 1 && j.some((n) => n.includes("LOOP")))!
    expect(batch).toBeDefined()
    expect(jobs).toContainEqual([expect.stringContaining("LOOP")])
    for (const other of batch.filter((n) => !n.includes("LOOP"))) {
      expect(byTeam(results.runs, path.basename(other).split("_")[0]).status).toBe("scored")
    }
    // every run was sent at least once, and most of them in batches, not one job each
    expect(new Set(jobs.flat().map((n) => path.basename(n))).size).toBe(24)
    expect(jobs.length).toBeLessThan(24)
  })

  it("a folder is read a few runs at a time: a run of more than 32 MiB alone, smaller ones at most two at a time (two scorers)", async () => {
    const dir = tempDir("schedule")
    fs.writeFileSync(log, "")
    // sizes as the file system gives them: sparse files, made at once and never read
    const sizes: Record<string, number> = { HOLDa_run1: 40, HOLDb_run1: 1, HOLDc_run1: 1, HOLDd_run1: 48, HOLDe_run1: 1, HOLDf_run1: 1 }
    for (const [name, mib] of Object.entries(sizes)) {
      fs.writeFileSync(path.join(dir, `${name}.txt`), "")
      fs.truncateSync(path.join(dir, `${name}.txt`), mib * 2 ** 20)
    }
    const results = await score({ folder: dir, isolation: { workers: 2 } })
    expect(results.runs.map((r) => r.failure)).toEqual(Object.keys(sizes).map(() => "held by the test scorer"))
    const events = fs.readFileSync(log, "utf8").trim().split("\n").map((l) => l.split(" ") as [string, string])
    const running = new Set<string>()
    let most = 0
    for (const [what, file] of events) {
      if (what === "start") {
        running.add(path.basename(file))
        most = Math.max(most, running.size)
        const big = [...running].filter((n) => sizes[n.replace(".txt", "")] > 32)
        // a large run is never read beside another run
        if (big.length > 0) expect([...running]).toEqual(big)
      } else running.delete(path.basename(file))
    }
    expect(events.filter(([w]) => w === "start")).toHaveLength(6)
    // never more runs at once than scorers
    expect(most).toBeLessThanOrEqual(2)
  })

  it("a folder of small runs gets a second scorer only past 32 MiB of runs (MB_PER_WORKER): 2,000 STS-B runs, 17 MiB, are read by one", async () => {
    const scorersFor = async (runs: number) => {
      const dir = tempDir("share")
      // 1 MiB each, as the file system gives it (sparse, never read: HOLD runs are held, not read)
      for (let i = 0; i < runs; i++) {
        fs.writeFileSync(path.join(dir, `HOLD${i}_run1.txt`), "")
        fs.truncateSync(path.join(dir, `HOLD${i}_run1.txt`), 2 ** 20)
      }
      Isolation.release() // the scorers of the tests before: every scorer of this scoring is one the test sees
      const started = scorersStarted()
      try {
        const results = await score({ folder: dir, isolation: { workers: 2 } })
        expect(results.runs).toHaveLength(runs)
        return started.workers.length
      } finally {
        started.stop()
      }
    }
    expect(await scorersFor(20)).toBe(1)
    expect(await scorersFor(40)).toBe(2)
  })
})

describe("the real scorer under a budget", () => {
  it("a run whose bytes alone are more than the memory budget is stopped while it is read", async () => {
    const dir = folderOf(["Good_run1primary.txt"])
    // a valid header, then 80 MiB of a line repeated: the reader holds its bytes before any parse. Lines
    // of 100 bytes keep the file under the reader's 1,000,000 lines, whose refusal would otherwise end
    // the read before the budget's poll (every 25 ms) saw it on a loaded machine
    const line = `1\tNEUTRAL\t3.${"5".repeat(87)}\n`
    fs.writeFileSync(path.join(dir, "Large_run1primary.txt"), `pair_ID\tentailment_judgment\trelatedness_score\n${line.repeat(Math.ceil((80 * 2 ** 20) / line.length))}`)
    const results = await score({ folder: dir, isolation: { budget: { memoryMb: 64 } } })
    const large = byTeam(results.runs, "Large")
    expect(large.status).toBe("failed")
    expect(large.failure).toMatch(/^over the memory budget: its scorer held \d+ MB, more than the 64 MB allowed$/)
    expect(byTeam(results.runs, "Good").status).toBe("scored")
  })

  it("a line of 1,000,000 digits ending in a bad character is reported (not a number) well within the time budget", async () => {
    const dir = tempDir("digits")
    const [header, first, ...rest] = fs.readFileSync(realRun, "utf8").split("\n")
    const fields = first.split("\t")
    fields[header.split("\t").indexOf("relatedness_score")] = `${"7".repeat(1_000_000)}x`
    fs.writeFileSync(path.join(dir, "Digits_run1primary.txt"), [header, fields.join("\t"), ...rest].join("\n"))
    const results = await score({ folder: dir, isolation: { budget: { timeMs: 10_000 } } })
    const run = results.runs[0]
    expect(run.errors.map((e) => e.code)).toContain("not-a-number")
    expect(run.errors.map((e) => e.code)).not.toContain("over-budget")
    // the message quotes an excerpt of the line, not the million digits
    expect(Math.max(...run.errors.map((e) => e.message.length))).toBeLessThan(1000)
  })

  it("the scorer's synchronous reads refuse what the asynchronous ones refuse, with the same words, and never block", async () => {
    const dir = folderOf(["Good_run1primary.txt"])
    const outside = tempDir("outside")
    fs.copyFileSync(realRun, path.join(outside, "secret.txt"))
    execFileSync("mkfifo", [path.join(dir, "Fifo_run1primary.txt")])
    fs.symlinkSync("/dev/zero", path.join(dir, "Zero_run1primary.txt"))
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "Out_run1primary.txt"))
    fs.symlinkSync(path.join(dir, "Good_run1primary.txt"), path.join(dir, "Twin_run1primary.txt"))
    fs.mkdirSync(path.join(dir, "Folder_run1primary"))
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "Folder_run1primary", "run.txt"))
    const results = await score({ folder: dir, isolation: { budget: { timeMs: 10_000 } } })
    // what the engine's own thread reads of each entry, with Node's asynchronous calls
    const edition = Registry.get("sick2014")!
    const within = await Effect.runPromise(Submissions.folderWithin(dir))
    for (const name of fs.readdirSync(dir)) {
      const entry = await Effect.runPromise(Submissions.loadEntry(dir, name, edition, {}, within).pipe(Effect.provide(NodeServices.layer)))
      const team = name.split("_")[0]
      const run = results.runs.find((r) => r.meta.team === team)
      if (entry._tag === "Skipped") {
        expect(run).toBeUndefined()
        expect(results.issues.map((i) => i.message)).toContain(entry.issue.message)
        continue
      }
      const expected = entry.run.issues.filter((i) => i.severity === "error").map((i) => i.message)
      expect(run?.errors.map((e) => e.message).slice(0, expected.length), name).toEqual(expected)
    }
    expect(byTeam(results.runs, "Good").status).toBe("scored")
    expect(results.runs.map((r) => [r.meta.team, r.status])).toEqual([
      ["Folder", "failed"],
      ["Good", "scored"],
      ["Out", "failed"],
      ["Twin", "failed"]
    ])
    // the FIFO and the link to /dev/zero: skipped, never opened
    expect(results.issues.filter((i) => i.message === "not a regular file, folder or zip; skipped").map((i) => path.basename(i.file)).sort()).toEqual([
      "Fifo_run1primary.txt",
      "Zero_run1primary.txt"
    ])
    // nothing of the target's path in any message
    expect(JSON.stringify(results.runs.map((r) => r.errors))).not.toContain(outside)
  })

  it("a scorer is kept for the next scoring of the same budget; one of another memory budget is a scorer of its own", async () => {
    Isolation.release() // the scorers of the tests before
    const started = scorersStarted()
    try {
      await score({ runs: [realRun] })
      expect(started.workers.length).toBe(1)
      const jobs = started.jobs(0)
      const before = jobs.length
      // the same budget: the same thread, given the job
      const again = await score({ runs: [realRun] })
      expect(again.runs[0].status).toBe("scored")
      expect(started.workers.length).toBe(1)
      expect(jobs.length).toBeGreaterThan(before)
      // another memory budget: a heap limit is a thread's own, so another thread scores it
      const other = await score({ runs: [realRun], isolation: { budget: { memoryMb: 512 } } })
      expect(other.runs[0].status).toBe("scored")
      expect(started.workers.length).toBe(2)
      expect(started.jobs(1).length).toBeGreaterThan(0)
    } finally {
      started.stop()
    }
  })

  it("Isolation.release ends the idle scorers: their threads exit, and the next scoring starts new ones with the same result", async () => {
    Isolation.release() // the scorers of the tests before: the next scoring starts one the test sees
    const started = scorersStarted()
    try {
      const first = await score({ runs: [realRun] })
      expect(started.workers.length).toBe(1)
      const exited = new Promise<number>((resolve) => started.workers[0].once("exit", resolve))
      let ended = false
      void exited.then(() => (ended = true))
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(ended).toBe(false)
      Isolation.release()
      await exited
      const second = await score({ runs: [realRun] })
      expect(started.workers.length).toBe(2)
      expect(second.runs.map((r) => [r.meta.id, r.status, r.official])).toEqual(first.runs.map((r) => [r.meta.id, r.status, r.official]))
    } finally {
      started.stop()
    }
  })

  it("budgets that cannot be used are refused before anything is read", () => {
    expect(Isolation.checkBudget({ timeMs: 0, memoryMb: 512 })).toBe("the time budget must be more than 0 ms")
    expect(Isolation.checkBudget({ timeMs: 1000, memoryMb: 16 })).toBe(`the memory budget must be a whole number of MiB, ${Isolation.MIN_MEMORY_MB} or more`)
    expect(Isolation.checkBudget(Isolation.defaultBudget)).toBeUndefined()
  })
})

describe("the scorer is the program's choice (Isolation.useEntry), never the environment's", () => {
  it("a variable naming another scorer (the tests' former hook, STSEVAL_SCORING_WORKER) changes nothing: the run is scored", async () => {
    process.env.STSEVAL_SCORING_WORKER = path.join(tempDir("none"), "no-such-scorer.mjs")
    try {
      const results = await score({ runs: [realRun] })
      expect(results.runs[0].status).toBe("scored")
    } finally {
      delete process.env.STSEVAL_SCORING_WORKER
    }
  })
})

describe("a small run is scored on the engine's thread under the same checks and the same budget", () => {
  const context = () => Effect.runPromise(Engine.loadContext({ task: "sick2014", gold }).pipe(Effect.provide(NodeServices.layer)))
  const submissionOf = (file: string, text: string): Submissions.Submission => ({
    meta: { id: `${path.basename(file).split("_")[0]}/run1`, team: path.basename(file).split("_")[0], run: 1, primary: true, late: false, corrected: false, postDeadline: false },
    path: file,
    kind: "file",
    files: [{ name: path.basename(file), path: file, bytes: new TextEncoder().encode(text) }],
    issues: []
  })

  /** A SICK run's text with each line's relatedness score (lines counted from 1 after the header) given by `f`. */
  const withScores = (text: string, f: (score: string, line: number) => string): string => {
    const [header, ...rows] = text.split("\n")
    const column = header.split("\t").indexOf("relatedness_score")
    const changed = rows.map((row, i) => {
      const fields = row.split("\t")
      if (fields.length <= column) return row
      fields[column] = f(fields[column], i + 1)
      return fields.join("\t")
    })
    return [header, ...changed].join("\n")
  }

  it("a hostile small run (checking it takes longer than its time budget) is stopped at the budget; the next run is scored", async () => {
    const ctx = await context()
    // about 0.8 MB: under the 1 MiB of a small run, and a line of 700,000 digits to read
    const hostile = withScores(fs.readFileSync(realRun, "utf8"), (score, line) => (line === 1 ? "7".repeat(700_000) : score))
    expect(hostile.length / 2 ** 20).toBeLessThan(Isolation.IN_THREAD_MB)
    const stopped = await Effect.runPromise(Engine.scoreSubmission(ctx, submissionOf("Hostile_run1.txt", hostile), { budget: { timeMs: 1 } }))
    expect(stopped.status).toBe("failed")
    expect(stopped.failure).toBe("over the time budget: not scored within 0.001 s")
    expect(stopped.errors.map((e) => e.code)).toEqual(["over-budget"])
    const good = await Effect.runPromise(Engine.scoreSubmission(ctx, submissionOf("Good_run1.txt", fs.readFileSync(realRun, "utf8"))))
    expect(good.status).toBe("scored")
  })

  it("one option says which runs are scored here (inThreadMb): 0 sends even a small run to a scorer, a larger limit keeps a larger run here under its budget", async () => {
    const ctx = await context()
    const text = fs.readFileSync(realRun, "utf8")
    Isolation.release()
    const started = scorersStarted()
    try {
      // a small run, every run to a scorer: a thread scores it
      const small = await Effect.runPromise(Engine.scoreSubmission(ctx, submissionOf("Small_run1.txt", text), { inThreadMb: 0 }))
      expect(small.status).toBe("scored")
      expect(started.workers.length).toBe(1)
      // a run of more than the default limit (about 1.7 MiB: each score with 300 more zeros, the same
      // number), kept here by a larger one
      const large = withScores(text, (score) => (score.includes(".") ? score + "0".repeat(300) : score))
      expect(large.length / 2 ** 20).toBeGreaterThan(Isolation.IN_THREAD_MB)
      const here = await Effect.runPromise(Engine.scoreSubmission(ctx, submissionOf("Large_run1.txt", large), { inThreadMb: Number.POSITIVE_INFINITY }))
      expect(here.status).toBe("scored")
      expect(here.official).toEqual(small.official)
      // and under its time budget there too: V8 ends its checking
      const hostile = withScores(large, (score, line) => (line === 1 ? "7".repeat(700_000) : score))
      const stopped = await Effect.runPromise(Engine.scoreSubmission(ctx, submissionOf("Hostile_run1.txt", hostile), { inThreadMb: Number.POSITIVE_INFINITY, budget: { timeMs: 1 } }))
      expect(stopped.failure).toBe("over the time budget: not scored within 0.001 s")
      expect(started.workers.length).toBe(1)
    } finally {
      started.stop()
    }
  })

  it("where the platform has no node:vm (the check page's browser worker, which the page ends at its budget), the checking runs as it is", () => {
    const original = process.getBuiltinModule.bind(process)
    const spy = vi.spyOn(process, "getBuiltinModule").mockImplementation((name: string) => {
      // as the page's shim answers a module it does not have
      if (name === "node:vm") throw new Error("node:vm is not available in the check page")
      return original(name)
    })
    try {
      expect(underTimeout(() => 42, 50)).toBe(42)
    } finally {
      spy.mockRestore()
    }
  })

  it("V8 ends the checking wherever it is once the time is up (node:vm's timeout): a loop that never ends is stopped", () => {
    const started = Date.now()
    expect(() =>
      underTimeout(() => {
        for (;;) {
          // a run whose checking never ends
        }
      }, 50)
    ).toThrow(/timed out/)
    // (the test ends at all: the loop was stopped; no figure is asserted on the time it took)
    expect(Date.now()).toBeGreaterThanOrEqual(started)
  })

  it("scores a folder's small runs as the scorers do: the same figures and the same ranking", async () => {
    const folder = folderOf(["A_run1primary.txt", "B_run1primary.txt"])
    const here = await Effect.runPromise(Engine.score({ task: "sick2014", gold, folder }).pipe(Effect.provide(NodeServices.layer)))
    const isolated = await score({ folder })
    expect(here.runs).toEqual(isolated.runs)
    expect(here.ranked).toEqual(isolated.ranked)
  })

  it("a scorer answers a batch a few runs a message, each gold array sent once, and the engine gets every run's gold back", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `T${String(i).padStart(2, "0")}_run1primary.txt`)
    const folder = folderOf(names)
    const context = await Effect.runPromise(Engine.loadContext({ task: "sick2014", gold }).pipe(Effect.provide(NodeServices.layer)))
    const { Worker } = await import("node:worker_threads")
    // the engine's side played by the test: a context, then one job of every run
    const worker = new Worker(pathToFileURL(builtScorer), { workerData: Isolation.scorerThread.workerData, execArgv: [] })
    const messages: Array<Extract<FromWorker, { type: "done" }>> = []
    try {
      await new Promise<void>((resolve, reject) => {
        worker.on("error", reject)
        worker.on("message", (m: FromWorker) => {
          if (m.type === "ready") {
            worker.postMessage({ type: "context", id: 1, edition: context.edition, gold: context.gold, lenient: false })
            const within = { path: folder, real: fs.realpathSync(folder) }
            worker.postMessage({ type: "job", job: 7, context: 1, works: names.map((name) => ({ kind: "entry", folder, name, within, options: {} })) })
            return
          }
          messages.push(m)
          if (messages.reduce((n, d) => n + d.answers.length, 0) === names.length) resolve()
        })
      })
    } finally {
      await worker.terminate()
    }
    expect(messages.length).toBeLessThan(names.length)
    expect(messages.every((m) => m.job === 7)).toBe(true)
    const answers = messages.flatMap((m) => m.answers)
    expect(new Set(answers.map((a) => a.index)).size).toBe(names.length)
    const sent = answers.flatMap((a) => (a.outcome.kind === "run" ? a.outcome.validation.datasets.flatMap((d) => (d.aligned === undefined ? [] : [d.aligned.gold.length])) : []))
    // SICK: two datasets scored a run (relatedness, entailment), each gold sent in full once
    expect(sent.filter((n) => n > 0)).toHaveLength(2)
    expect(sent).toHaveLength(2 * names.length)
    const decode = goldDecoder().decode
    const decoded: Array<Outcome> = answers.map((a) => decode(a.outcome))
    const datasets = decoded.flatMap((o) => (o.kind === "run" ? o.validation.datasets : []))
    expect(datasets).toHaveLength(2 * names.length)
    for (const d of datasets) {
      expect(d.pairs).toBeGreaterThan(0)
      expect(d.aligned?.gold.length).toBe(d.pairs)
    }
  })
})

describe("Isolation.warm", () => {
  /** Waits until a scorer just started is ready; ready and idle, it is ended by release, as any idle scorer. */
  const readyThenReleased = async (worker: Worker) => {
    await new Promise<void>((resolve) => worker.on("message", (m: { readonly type: string }) => m.type === "ready" && resolve()))
    await new Promise((resolve) => setImmediate(resolve))
    const exited = new Promise((resolve) => worker.once("exit", resolve))
    Isolation.release()
    await exited
  }

  it("starts a scorer ahead only for a folder of more runs than the engine's thread scores alone (16); the scorer then waits idle", async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `T${String(i).padStart(2, "0")}_run1primary.txt`)
    Isolation.release()
    const started = scorersStarted()
    try {
      // a folder of 16 runs, a run file, a path that is nothing: no scorer
      Isolation.warm([folderOf(names(16)), realRun, path.join(tempDir("none"), "absent")])
      expect(started.workers).toHaveLength(0)
      Isolation.warm([realRun, folderOf(names(17))])
      expect(started.workers).toHaveLength(1)
      await readyThenReleased(started.workers[0])
    } finally {
      started.stop()
    }
  })

  it("takes a scorer a loader started ahead under its budget (scorerThread.ahead) as its first, and ends one started under another", async () => {
    const { key, memoryMb } = Isolation.scorerThread.ahead
    const held = globalThis as { [k: symbol]: unknown }
    // what the engine does with a worker, on a stand-in that says it is ready when asked
    const standIn = () => Object.assign(new EventEmitter(), { unref: vi.fn(), ref: vi.fn(), postMessage: vi.fn(), terminate: vi.fn(() => Promise.resolve(0)) })
    const folder = folderOf(Array.from({ length: 17 }, (_, i) => `T${String(i).padStart(2, "0")}_run1primary.txt`))
    Isolation.release()
    const started = scorersStarted()
    try {
      const ahead = standIn()
      held[Symbol.for(key)] = { worker: ahead, memoryMb }
      Isolation.warm([folder])
      // taken, once: no thread started
      expect(started.workers).toHaveLength(0)
      expect(held[Symbol.for(key)]).toBeUndefined()
      ahead.emit("message", { type: "ready" })
      await new Promise((resolve) => setImmediate(resolve))
      Isolation.release()
      expect(ahead.terminate).toHaveBeenCalled()
      // one started under another memory budget is ended, and the engine starts its own
      const other = standIn()
      held[Symbol.for(key)] = { worker: other, memoryMb: memoryMb + 1 }
      Isolation.warm([folder])
      expect(other.terminate).toHaveBeenCalled()
      expect(started.workers).toHaveLength(1)
      await readyThenReleased(started.workers[0])
      // one that ended before it was taken (threadId -1) is not waited for: the engine starts its own
      const ended = Object.assign(standIn(), { threadId: -1 })
      held[Symbol.for(key)] = { worker: ended, memoryMb }
      Isolation.warm([folder])
      expect(held[Symbol.for(key)]).toBeUndefined()
      expect(started.workers).toHaveLength(2)
      await readyThenReleased(started.workers[1])
    } finally {
      started.stop()
    }
  })
})
