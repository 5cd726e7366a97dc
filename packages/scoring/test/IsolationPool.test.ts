/**
 * The pool of isolated scorers is the process's, shared by every scoring in it (and, in the test
 * suite, by every test file of a Vitest worker: `isolate: false`). What one scoring leaves in it
 * must not stall the next: here, a job interrupted while it waited for a scorer.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { Engine, Isolation } from "@stseval/scoring"
import { Effect } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import * as Pool from "../src/internal/pool.js"
import { repoRoot } from "./helpers.js"

const gold = path.join(repoRoot, "examples/sick2014/SICK_test_annotated.txt")
const realRun = path.join(repoRoot, "examples/sick2014/submissions/MeaningFactory_run1primary.txt")
const misbehaving = path.join(repoRoot, "tooling/vitest-config/misbehaving-scorer.mjs")
const builtScorer = process.env.STSEVAL_TEST_SCORER!

/** What a scorer scores against: the SICK example's gold. */
const contextData = async (): Promise<Pool.ContextData> => {
  const context = await Effect.runPromise(Engine.loadContext({ task: "sick2014", gold }).pipe(Effect.provide(NodeServices.layer)))
  return { edition: context.edition, gold: context.gold, lenient: false }
}

describe("the pool after an interrupted wait, or after scorers of another budget", () => {
  const saved = { log: process.env.STSEVAL_TEST_SCORER_LOG, real: process.env.STSEVAL_REAL_SCORER }
  beforeEach(() => {
    // (a worker copies the environment when it is made: the misbehaving scorer's log and real scorer)
    process.env.STSEVAL_TEST_SCORER_LOG = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "stseval-pool-")), "log.txt")
    process.env.STSEVAL_REAL_SCORER = builtScorer
  })
  afterEach(() => {
    process.env.STSEVAL_TEST_SCORER_LOG = saved.log
    process.env.STSEVAL_REAL_SCORER = saved.real
  })

  it("a job interrupted while it waits for a scorer leaves the pool: the next job waiting gets the scorer when it is free", async () => {
    const data = await contextData()
    const entry: Pool.Entry = { url: pathToFileURL(misbehaving) }
    const budget = { timeMs: 30_000, memoryMb: 256 }
    const work = (p: string) => ({ kind: "path", path: p, options: {} }) as const
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-pool-runs-"))
    const held = path.join(dir, "HOLD_run1primary.txt")
    fs.copyFileSync(realRun, held)
    // the scorers of the tests before: this test's jobs are the pool's only ones (one scorer)
    Isolation.release()
    const settled: Array<string> = []
    const note = <A>(name: string, p: Promise<A>) => p.finally(() => settled.push(name))
    // one scorer at most: the first job takes it (held 150 ms), the two others wait for it
    const first = note("first", Pool.run(entry, data, [work(held)], budget, 1, new AbortController().signal))
    const interrupted = new AbortController()
    const second = note("second", Pool.run(entry, data, [work(realRun)], budget, 1, interrupted.signal))
    const third = note("third", Pool.run(entry, data, [work(realRun)], budget, 1, new AbortController().signal))
    interrupted.abort(new Error("Ctrl-C"))
    const gone = await second
    expect(gone.outcomes).toEqual([undefined])
    expect(gone.failure?.message).toMatch(/^interrupted/)
    // the interrupted job answered at once, not when a scorer was free
    expect(settled).toEqual(["second"])
    expect((await first).outcomes[0]).toMatchObject({ kind: "error", message: "held by the test scorer" })
    // before: the scorer freed by the first job woke the interrupted one, and this one waited forever
    const next = await third
    expect(next.failure).toBeUndefined()
    expect(next.outcomes[0]?.kind).toBe("run")
    expect(settled).toEqual(["second", "first", "third"])
  })

  it("a job interrupted while its scorer starts ends there: the scorer is free for the next job, not held to the time budget", async () => {
    const data = await contextData()
    const entry: Pool.Entry = { url: pathToFileURL(misbehaving) }
    // a budget longer than the test's timeout: a job that ran to it would fail the test
    const budget = { timeMs: 60_000, memoryMb: 256 }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-pool-runs-"))
    const loop = path.join(dir, "LOOP_run1primary.txt")
    fs.copyFileSync(realRun, loop)
    Isolation.release()
    const interrupted = new AbortController()
    // a new scorer is started for it (none idle of this budget): interrupted before it is ready
    const first = Pool.run(entry, data, [{ kind: "path", path: loop, options: {} }], budget, 1, interrupted.signal)
    interrupted.abort(new Error("Ctrl-C"))
    const gone = await first
    // before: the run was sent once the scorer was ready, and its loop held the scorer 60 s
    expect(gone.failure?.message).toMatch(/^interrupted/)
    const next = await Pool.run(entry, data, [{ kind: "path", path: realRun, options: {} }], budget, 1, new AbortController().signal)
    expect(next.failure).toBeUndefined()
    expect(next.outcomes[0]?.kind).toBe("run")
  })

  it("a scorer that never says it is ready is ended at its start limit: the job fails as having no scorer, and the next job gets a fresh one", async () => {
    const data = await contextData()
    // a thread that stays alive and never serves (a loader stuck before `serve`)
    const stuck: Pool.Entry = { url: pathToFileURL(misbehaving), eval: "setInterval(() => {}, 1000)" }
    const work = [{ kind: "path", path: realRun, options: {} }] as const
    Isolation.release()
    // before: the job waited for "ready" for good, and the test timed out
    const gone = await Pool.run(stuck, data, work, { timeMs: 300, memoryMb: 256, startMs: 300 }, 1, new AbortController().signal)
    expect(gone.outcomes).toEqual([undefined])
    expect(gone.failure).toEqual({ kind: "no-scorer", message: "the isolated scorer could not start: it did not say it was ready within 0.3 s" })
    // the stuck thread gave its place: a job for a working scorer runs
    const next = await Pool.run({ url: pathToFileURL(builtScorer) }, data, work, { timeMs: 30_000, memoryMb: 256 }, 1, new AbortController().signal)
    expect(next.failure).toBeUndefined()
    expect(next.outcomes[0]?.kind).toBe("run")
  })

  it("a scorer may take the run's time budget to start, and never less than 30 s (a start is the machine's pace, not the run's)", () => {
    expect(Pool.startLimit({ timeMs: 1500, memoryMb: 256 })).toBe(30_000)
    expect(Pool.startLimit({ timeMs: 60_000, memoryMb: 256 })).toBe(60_000)
    expect(Pool.startLimit({ timeMs: 1500, memoryMb: 256, startMs: 300 })).toBe(300)
  })

  it("idle scorers of another budget, more than this job may find in its way, all give their place: the job is never left waiting", async () => {
    const data = await contextData()
    const entry: Pool.Entry = { url: pathToFileURL(builtScorer) }
    const work = [{ kind: "path", path: realRun, options: {} }] as const
    Isolation.release()
    // an earlier scoring (another file's, in the suite's shared process) scored on two threads...
    const earlier = await Promise.all([0, 1].map(() => Pool.run(entry, data, work, { timeMs: 30_000, memoryMb: 256 }, 2, new AbortController().signal)))
    expect(earlier.map((a) => a.outcomes[0]?.kind)).toEqual(["run", "run"])
    // ...and left them idle; this job, of another memory budget, may have one thread. Before: one of
    // the two was ended to make room, the other stood in the way, and nothing woke the job (the first
    // test of Isolation.test.ts timed out so in CI, on a fresh clone where files ran in that order)
    const next = await Pool.run(entry, data, work, { timeMs: 30_000, memoryMb: 192 }, 1, new AbortController().signal)
    expect(next.failure).toBeUndefined()
    expect(next.outcomes[0]?.kind).toBe("run")
  })
})
