import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import type { Leaderboard } from "../src/Leaderboard.js"
import * as Fake from "./fixtures/fake.js"
import { builtChildren, cacheEntries, once, status, tempDir, waitFor } from "./fixtures/harness.js"

const here = import.meta.dirname
const repoRoot = path.resolve(here, "../../..")
const built = builtChildren("children", ["child", "child-engine"])
const sickGold = path.join(repoRoot, "examples/sick2014/SICK_test_annotated.txt")
const sickRun = path.join(repoRoot, "examples/sick2014/submissions/MeaningFactory_run1primary.txt")
const misbehaving = path.join(repoRoot, "tooling/vitest-config/misbehaving-scorer.mjs")

const children: Array<ChildProcess> = []
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
  children.length = 0
})

/**
 * The watcher in a child process (fixtures/child.ts). `holdAt`: the index of the run the engine holds
 * mid-scoring for good (`holding` resolves with its entry once the child says so on stdout).
 */
const startChild = (folder: string, out: string, mode: "watch" | "once", holdAt?: number, crashOn?: string) => {
  const c = spawn(process.execPath, [built["child"], folder, out, mode, holdAt === undefined ? "-" : String(holdAt), ...(crashOn !== undefined ? [crashOn] : [])], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stderr = ""
  c.stderr.on("data", (d) => (stderr += String(d)))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    c.on("exit", (code, signal) => resolve({ code, signal, stderr }))
  )
  let stdout = ""
  const holding = new Promise<string>((resolve, reject) => {
    c.stdout.on("data", (d) => {
      stdout += String(d)
      const m = /^holding (.+)$/m.exec(stdout)
      if (m !== null) resolve(m[1])
    })
    void exited.then((e) => reject(new Error(`the watcher exited (${e.code ?? e.signal}) before holding a run:\n${e.stderr}`)))
  })
  // a test that does not hold a run does not wait on this
  holding.catch(() => {})
  children.push(c)
  return { child: c, exited, holding }
}

/** How long a test waits for the watcher before giving up: a safety net only, every wait is on an event or a file. */
const DEADLINE = 60_000

const cacheFiles = (out: string) => cacheEntries(out).length

describe("crash safety", () => {
  it("killed with SIGKILL mid-scoring, restarted: nothing lost, nothing re-scored, same leaderboard as a clean once run", async () => {
    const folder = tempDir("crash")
    const out = tempDir("crash-out")
    const N = 12
    for (let i = 1; i <= N; i++) {
      // distinct runs: the gold with one pair's score raised by i/10
      const scores = Fake.GOLD.map((g, k) => (k === i % Fake.GOLD.length ? g + i / 10 : g))
      fs.writeFileSync(path.join(folder, `Team${String(i).padStart(2, "0")}_run1.txt`), Fake.runText(scores))
    }
    fs.writeFileSync(path.join(folder, "Bad_run1.txt"), "not a score\n")

    // 1. a watcher that holds the sixth run it starts on mid-scoring, for good; it is killed there,
    // at a point that does not depend on how fast the machine is: five runs done (at least four
    // scored, as one file is bad), one being scored
    const HELD_AT = 5
    const first = startChild(folder, out, "watch", HELD_AT)
    const held = await first.holding
    // and the watcher's own status says so
    await waitFor(
      "a few runs scored and the held one scoring",
      () => {
        const s = status(out)
        if (s === undefined) return undefined
        const v = Object.values(s.runs)
        return v.filter((r) => r.status === "scored").length >= 4 && s.runs[held]?.status === "scoring"
      },
      DEADLINE
    )
    first.child.kill("SIGKILL")
    const killed = await first.exited
    expect(killed.signal).toBe("SIGKILL")
    const cachedBeforeRestart = cacheFiles(out)
    expect(cachedBeforeRestart).toBeGreaterThanOrEqual(4)
    expect(cachedBeforeRestart).toBeLessThan(N + 1)
    // exactly the runs finished before the held one are cached
    expect(cachedBeforeRestart).toBe(HELD_AT)
    // killed mid-scoring: the journal names the held run (scored alone: this engine scores one run a call)
    const journals = fs.readdirSync(path.join(out, "cache")).filter((n) => n.endsWith(".scoring"))
    expect(journals).toHaveLength(1)
    expect((JSON.parse(fs.readFileSync(path.join(out, "cache", journals[0]), "utf8")) as { runs: unknown }).runs).toMatchObject([{ entry: held, attempts: 1 }])

    // 2. restart: it resumes and completes
    const second = startChild(folder, out, "watch")
    const done = await waitFor(
      "all runs published after the restart",
      () => {
        const s = status(out)
        return s !== undefined && s.phase === "watching" && s.idle && Object.keys(s.runs).length === N + 1 ? s : undefined
      },
      DEADLINE
    )
    // only the runs without a cached score were scored again
    expect(done.session.scored).toBe(N + 1 - cachedBeforeRestart)
    expect(done.session.cacheHits).toBe(cachedBeforeRestart)
    // Ctrl-C / SIGTERM stops it cleanly
    second.child.kill("SIGTERM")
    const stopped = await second.exited
    expect(stopped.stderr).not.toMatch(/Error/)
    expect(status(out)!.phase).toBe("stopped")
    const resumed = fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")

    // 3. a clean one-shot run of the same folder gives the same leaderboard, byte for byte
    const clean = tempDir("crash-clean")
    await once({ folder, out: clean })
    expect(resumed).toBe(fs.readFileSync(path.join(clean, "leaderboard.json"), "utf8"))
    const board = JSON.parse(resumed) as Leaderboard
    expect(board.counts).toEqual({ runs: N + 1, scored: N, failed: 1, ranked: N })
    expect(fs.readdirSync(out).filter((n) => n.endsWith(".tmp"))).toEqual([])
  }, 2 * DEADLINE)

  it("a run that kills the scorer is tried once more after a restart, then failed as 'crashed the scorer'; the rest of the board is published", async () => {
    const folder = tempDir("crashloop")
    const out = tempDir("crashloop-out")
    for (let i = 1; i <= 3; i++) fs.writeFileSync(path.join(folder, `Good${i}_run1.txt`), Fake.runText(Fake.GOLD.map((g, k) => (k === i ? g + 1 : g))))
    fs.writeFileSync(path.join(folder, "Crash_run1.txt"), "CRASH\n")
    // 1st and 2nd start: the process dies while scoring Crash_run1 (the journal names it)
    for (let attempt = 1; attempt <= 2; attempt++) {
      const died = await startChild(folder, out, "once", undefined, "CRASH").exited
      expect(died.signal).toBe("SIGKILL")
      const journals = fs.readdirSync(path.join(out, "cache")).filter((n) => n.endsWith(".scoring"))
      expect(journals).toHaveLength(1)
      // (the first start's journal gone: its count goes on in the second's)
      expect((JSON.parse(fs.readFileSync(path.join(out, "cache", journals[0]), "utf8")) as { runs: unknown }).runs).toMatchObject([{ entry: "Crash_run1.txt", attempts: attempt }])
    }
    // 3rd start: not scored again; failed with the reason, the other runs ranked, the journal cleared
    const third = await startChild(folder, out, "once", undefined, "CRASH").exited
    expect(third.code).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as Leaderboard
    expect(board.counts).toEqual({ runs: 4, scored: 3, failed: 1, ranked: 3 })
    expect(board.runs.find((r) => r.entry === "Crash_run1.txt")!.failure).toMatch(/^crashed the scorer/)
    expect(fs.readdirSync(path.join(out, "cache")).filter((n) => n.endsWith(".scoring"))).toEqual([])
    // and it stays failed: the failure is cached (under the run's content key), not retried
    expect(cacheEntries(out)).toHaveLength(4)
    // three child processes started one after the other: on a loaded machine each may take seconds
  }, 2 * DEADLINE)

  describe("on the real engine, each run scored in isolation", () => {
    /** The watcher on the engine (once), its scorer the one that misbehaves on cue. */
    const startEngine = (folder: string, out: string, scorer: { readonly log: string; readonly gate: string }, timeMs?: number) => {
      const c = spawn(process.execPath, [built["child-engine"], folder, out, sickGold, ...(timeMs !== undefined ? [String(timeMs)] : [])], {
        cwd: repoRoot,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          STSEVAL_TEST_SCORER: misbehaving,
          STSEVAL_REAL_SCORER: process.env.STSEVAL_TEST_SCORER,
          STSEVAL_TEST_SCORER_LOG: scorer.log,
          STSEVAL_TEST_SCORER_GATE: scorer.gate
        }
      })
      let stderr = ""
      c.stderr.on("data", (d) => (stderr += String(d)))
      c.stdout.resume()
      children.push(c)
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => c.on("exit", (code, signal) => resolve({ code, signal, stderr })))
      return { child: c, exited }
    }
    const scorerFiles = () => {
      const dir = tempDir("scorer")
      const log = path.join(dir, "log.txt")
      fs.writeFileSync(log, "")
      return { log, gate: path.join(dir, "gate") }
    }
    const journals = (out: string) => fs.readdirSync(path.join(out, "cache")).filter((n) => n.endsWith(".scoring"))

    it("a valid run whose scoring was stopped twice by killing the watcher is scored at the next start, not failed as 'crashed the scorer'", async () => {
      const folder = tempDir("killed")
      const out = tempDir("killed-out")
      fs.copyFileSync(sickRun, path.join(folder, "Good_run1primary.txt"))
      // a valid run (the real one, copied), held by the scorer until the gate opens
      fs.copyFileSync(sickRun, path.join(folder, "WAITteam_run1primary.txt"))
      const scorer = scorerFiles()
      for (let attempt = 1; attempt <= 2; attempt++) {
        const run = startEngine(folder, out, scorer)
        await waitFor("the scorer holding the valid run", () => fs.readFileSync(scorer.log, "utf8").split("\n").filter((l) => l.startsWith("waiting")).length === attempt, DEADLINE)
        run.child.kill("SIGKILL")
        expect((await run.exited).signal).toBe("SIGKILL")
        // one journal, the batch's, each of its runs with its attempt
        expect(journals(out)).toHaveLength(1)
        const written = journals(out).flatMap((n) => (JSON.parse(fs.readFileSync(path.join(out, "cache", n), "utf8")) as { runs: Array<{ entry: string; attempts: number }> }).runs)
        expect(written.find((j) => j.entry === "WAITteam_run1primary.txt")).toMatchObject({ attempts: attempt })
        // a run scored in the same batch (the first scan's runs are scored together) is listed too:
        // the watcher stopped while scoring it as well; no other run
        expect(written.every((j) => j.entry === "WAITteam_run1primary.txt" || j.entry === "Good_run1primary.txt")).toBe(true)
      }
      // the third start: the run is scored (the watcher was killed from outside; the run did not crash it)
      fs.writeFileSync(scorer.gate, "")
      const third = await startEngine(folder, out, scorer).exited
      expect(third.code).toBe(0)
      const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as Leaderboard
      const held = board.runs.find((r) => r.entry === "WAITteam_run1primary.txt")!
      expect(held.status).toBe("scored")
      expect(held.failure ?? null).toBeNull()
      expect(board.counts).toEqual({ runs: 2, scored: 2, failed: 0, ranked: 2 })
      expect(journals(out)).toEqual([])
      expect(fs.readFileSync(path.join(out, "watch.log"), "utf8")).toContain("the watcher stopped 2 times while scoring this run (from outside: runs are scored in isolation); scoring it again")
    }, 3 * DEADLINE)

    it("a run over its time budget is published failed with the reason, never cached; the watcher and the other runs go on", async () => {
      const folder = tempDir("budget")
      const out = tempDir("budget-out")
      fs.copyFileSync(sickRun, path.join(folder, "Good_run1primary.txt"))
      fs.copyFileSync(sickRun, path.join(folder, "LOOP_run1primary.txt"))
      const run = await startEngine(folder, out, scorerFiles(), 1_500).exited
      expect(run.code).toBe(0)
      const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as Leaderboard
      expect(board.runs.find((r) => r.entry === "LOOP_run1primary.txt")).toMatchObject({ status: "failed", failure: "over the time budget: not scored within 1.5 s" })
      expect(board.counts).toEqual({ runs: 2, scored: 1, failed: 1, ranked: 1 })
      // only the good run's score is cached: how long a run takes depends on the machine's load
      expect(cacheFiles(out)).toBe(1)
    }, 2 * DEADLINE)
  })
})
