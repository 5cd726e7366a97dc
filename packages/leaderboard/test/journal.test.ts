/**
 * The scoring journal (issue 36): one file per batch listing each run of it and its attempt, on
 * disk before the batch is scored and removed after, not one written and removed per run. A
 * journal left by a crash (a batch's, or a run's from before batches) still counts its runs'
 * attempts, and a run at `Cache.MAX_SCORING_ATTEMPTS` is given up on as before.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as Cache from "../src/Cache.js"
import type { Leaderboard } from "../src/Leaderboard.js"
import * as Fake from "./fixtures/fake.js"
import { once, readJson, tempDir } from "./fixtures/harness.js"

const RUNS = 30

const folderOfRuns = (label: string, count = RUNS) => {
  const folder = tempDir(label)
  for (let k = 0; k < count; k++) fs.writeFileSync(path.join(folder, `T${String(k).padStart(2, "0")}_run1.txt`), Fake.runText(Fake.GOLD.map((g, i) => (i === k % Fake.GOLD.length ? g + 1 : g))))
  return folder
}

const journals = (out: string) => fs.readdirSync(path.join(out, "cache")).filter((n) => n.endsWith(".scoring"))
type Listed = { entry: string; attempts: number }
/** The runs each journal on disk lists, with their attempts: a batch's journal, or one run's (before batches). */
const journalRuns = (out: string): Array<Array<Listed>> =>
  journals(out).map((n) => {
    const j = JSON.parse(fs.readFileSync(path.join(out, "cache", n), "utf8")) as { runs: Array<Listed> } | Listed
    return "runs" in j ? j.runs : [{ entry: j.entry, attempts: j.attempts }]
  })
/** Every run the journals on disk list, with its attempt. */
const journaled = (out: string) => journalRuns(out).flat()

/** A promise and the function that settles it. */
const gate = () => {
  let open = () => {}
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

describe("the scoring journal", () => {
  it("is written once and removed once per batch, not once per run", async () => {
    const folder = folderOfRuns("journal-writes")
    const out = tempDir("journal-writes-out")
    const written: Array<string> = []
    const removed: Array<string> = []
    // every write of a journal (its temp file, then renamed) and every removal
    const batches: Array<ReadonlyArray<string>> = []
    const summary = await once({ folder, out }, { batches }, (real) => ({
      writeFile: (p, data, options) => {
        if (p.includes(".scoring.")) written.push(p)
        return real.writeFile(p, data, options)
      },
      remove: (p, options) => {
        if (p.endsWith(".scoring")) removed.push(p)
        return real.remove(p, options)
      }
    }))
    expect(summary.scoredThisSession).toBe(RUNS)
    expect(batches.length).toBeGreaterThan(0)
    // one journal per batch (before: one per run, 30 writes and 30 removals)
    expect(written).toHaveLength(batches.length)
    expect(removed).toHaveLength(batches.length)
    expect(journals(out)).toEqual([])
  })

  it.each(["batch", "single"] as const)("while a run is scored (%s), a journal on disk lists it and every run scored with it, each with its first attempt", async (mode) => {
    const folder = folderOfRuns(`journal-held-${mode}`, 6)
    const out = tempDir(`journal-held-${mode}-out`)
    const held = gate()
    const release = gate()
    const batches: Array<ReadonlyArray<string>> = []
    const done = once({ folder, out }, {
      ...(mode === "batch" ? { batches } : {}),
      hold: (s) => (s.entry === "T03_run1.txt" ? (held.open(), release.opened) : undefined)
    })
    await held.opened
    const listed = journaled(out)
    expect(listed.find((r) => r.entry === "T03_run1.txt")).toMatchObject({ attempts: 1 })
    expect(listed.every((r) => r.attempts === 1)).toBe(true)
    // the batch's runs in one file (the batch holding it: the first scan makes one or a few, as the
    // runs settle, and those before it are done); a run scored alone in its own
    expect(journals(out)).toHaveLength(1)
    if (mode === "batch") expect(listed.map((r) => r.entry).sort()).toEqual([...(batches.find((b) => b.includes("T03_run1.txt")) ?? [])].sort())
    else expect(listed.map((r) => r.entry)).toEqual(["T03_run1.txt"])
    release.open()
    await done
    expect(journals(out)).toEqual([])
  })

  /** A journal left by a crash: the runs `attempts` names (by entry) with the keys of their content. */
  type Left = (out: string, attempts: ReadonlyArray<{ readonly entry: string; readonly key: string; readonly attempts: number }>) => void
  const formats: ReadonlyArray<readonly [string, Left]> = [
    [
      "a batch's journal",
      (out, runs) =>
        fs.writeFileSync(path.join(out, "cache", "0123abcd.scoring"), JSON.stringify({ runs: runs.map((r) => ({ key: r.key, entry: r.entry, attempts: r.attempts })), startedAt: 1 }))
    ],
    [
      "one journal per run (before batches)",
      (out, runs) => {
        for (const r of runs) fs.writeFileSync(path.join(out, "cache", `${r.key}.scoring`), JSON.stringify({ entry: r.entry, attempts: r.attempts, startedAt: 1 }))
      }
    ]
  ]

  describe.each(formats)("left by a crash: %s", (_, leave) => {
    it.each(["batch", "single"] as const)("each run's attempts are counted (%s): a run at the limit is failed as 'crashed the scorer', another scored with its attempt counted", async (mode) => {
      const folder = folderOfRuns(`journal-left-${mode}`, 4)
      const out = tempDir(`journal-left-${mode}-out`)
      // the keys of the runs' content: from a clean start's state, its scores then dropped
      await once({ folder, out })
      const state = readJson<{ runs: Record<string, { key: string }> }>(path.join(out, "state.json"))!
      for (const n of fs.readdirSync(path.join(out, "cache"))) fs.rmSync(path.join(out, "cache", n))
      fs.rmSync(path.join(out, "state.json"))
      leave(out, [
        { entry: "T01_run1.txt", key: state.runs["T01_run1.txt"].key, attempts: Cache.MAX_SCORING_ATTEMPTS },
        { entry: "T02_run1.txt", key: state.runs["T02_run1.txt"].key, attempts: 1 }
      ])
      const held = gate()
      const release = gate()
      const started: Array<string> = []
      const done = once({ folder, out }, {
        ...(mode === "batch" ? { batches: [] } : {}),
        hold: (s) => (started.push(s.entry), s.entry === "T02_run1.txt" ? (held.open(), release.opened) : undefined)
      })
      await held.opened
      // T02 counted a second time while scored, in the one journal it is scored under
      const onDisk = journalRuns(out)
      const now = onDisk.filter((runs) => runs.some((r) => r.entry === "T02_run1.txt" && r.attempts === 2))
      expect(now).toHaveLength(1)
      // the crash's journal went once a newer one held all its runs: one still on disk holds T01,
      // which settled after T02 (each run settles on its own, so either may be queued first) and
      // has not been looked at yet
      const older = onDisk.filter((runs) => runs !== now[0])
      expect(older.length).toBeLessThanOrEqual(1)
      for (const runs of older) expect(runs.map((r) => r.entry)).toContain("T01_run1.txt")
      release.open()
      const summary = await done
      expect(summary).toMatchObject({ runs: 4, scored: 3, failed: 1 })
      // the run at the limit was not scored again
      expect(started).not.toContain("T01_run1.txt")
      const board = readJson<Leaderboard>(path.join(out, "leaderboard.json"))!
      expect(board.runs.find((r) => r.entry === "T01_run1.txt")!.failure).toBe(
        `crashed the scorer: the watcher stopped ${Cache.MAX_SCORING_ATTEMPTS} times while scoring this run; it is not scored again until it changes`
      )
      expect(board.runs.find((r) => r.entry === "T02_run1.txt")!.status).toBe("scored")
      expect(journals(out)).toEqual([])
    })
  })
})
