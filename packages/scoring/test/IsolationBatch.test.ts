/**
 * Loaded runs scored together (`Engine.scoreSubmissions`, the watcher's first scan): the same
 * scored runs as one call per run, small runs checked under one node:vm watchdog per batch, not one
 * per run, and a run a batch's watchdog stops checked again alone under its own budget (issue 36).
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as fs from "node:fs"
import * as path from "node:path"
import * as vm from "node:vm"
import type { Submissions } from "@stseval/formats"
import { Engine } from "@stseval/scoring"
import { Effect } from "effect"
import { describe, expect, it, vi } from "vitest"
import { batchesOf } from "../src/internal/batches.js"
import { underOneTimeout } from "../src/internal/scoreLoaded.js"
import { repoRoot } from "./helpers.js"

const gold = path.join(repoRoot, "examples/sick2014/SICK_test_annotated.txt")
const submissions = path.join(repoRoot, "examples/sick2014/submissions")

const context = () => Effect.runPromise(Engine.loadContext({ task: "sick2014", gold }).pipe(Effect.provide(NodeServices.layer)))

const submissionOf = (file: string): Submissions.Submission => {
  const team = path.basename(file).split("_")[0]
  return {
    meta: { id: `${team}/run1`, team, run: 1, primary: true, late: false, corrected: false, postDeadline: false },
    path: file,
    kind: "file",
    files: [{ name: path.basename(file), path: file, bytes: fs.readFileSync(file) }],
    issues: []
  }
}

describe("Engine.scoreSubmissions", () => {
  it("gives each run what scoreSubmission gives it alone, in order, and arms one watchdog per batch of runs, not one per run", async () => {
    const ctx = await context()
    const files = fs.readdirSync(submissions).filter((n) => n.endsWith(".txt")).sort()
    // the examples' runs three times over (other teams' names): 15 runs
    const runs = [0, 1, 2].flatMap((k) => files.map((n) => ({ ...submissionOf(path.join(submissions, n)), meta: { ...submissionOf(path.join(submissions, n)).meta, team: `T${k}${n}`, id: `T${k}${n}/run1` } })))
    expect(runs.length).toBe(15)
    const alone = []
    for (const run of runs) alone.push(await Effect.runPromise(Engine.scoreSubmission(ctx, run)))
    const watchdogs = vi.spyOn(vm.Script.prototype, "runInThisContext")
    try {
      const together = await Effect.runPromise(Engine.scoreSubmissions(ctx, runs))
      expect(together).toEqual(alone)
      // the examples' runs are small: all checked on this thread, in a few batches (`batchesOf`:
      // about four, of at most 256 runs), each under one timeout; one call per run armed 15
      expect(watchdogs.mock.calls.length).toBeGreaterThan(0)
      expect(watchdogs.mock.calls.length).toBeLessThanOrEqual(4)
    } finally {
      watchdogs.mockRestore()
    }
    expect(alone.filter((r) => r.status === "scored").length).toBeGreaterThan(0)
  })

  it("no runs: no scored runs", async () => {
    expect(await Effect.runPromise(Engine.scoreSubmissions(await context(), []))).toEqual([])
  })
})

describe("batchesOf: runs shared out to scorers", () => {
  it("sends a lone scorer 2,000 small runs in a few batches (a wait between two), in order; a large run alone; at most 4 MiB a batch", () => {
    // 2,000 STS-B runs (8.6 KiB each) with one scorer: 8 batches (32 of 64 before)
    const stsb = Array.from({ length: 2000 }, () => 8.6 / 1024)
    const one = batchesOf(stsb, 1)
    expect(one.map((b) => b.length)).toEqual([256, 256, 256, 256, 256, 256, 256, 208])
    expect(one.flat()).toEqual(stsb.map((_, i) => i))
    // each of two scorers still gets a few
    expect(batchesOf(stsb, 2).length).toBe(8)
    // SICK-sized runs (40 KiB): at most 4 MiB a batch; a run over 1 MiB alone
    const mixed = [...Array.from({ length: 300 }, () => 0.04), 3, ...Array.from({ length: 10 }, () => 0.04)]
    const batches = batchesOf(mixed, 1)
    expect(batches.every((b) => b.reduce((sum, i) => sum + mixed[i], 0) <= 4)).toBe(true)
    expect(batches).toContainEqual([300])
    expect(batches.flat().sort((a, b) => a - b)).toEqual(mixed.map((_, i) => i))
  })
})

describe("underOneTimeout: a batch under one run's time budget", () => {
  it("a step that never ends is stopped at the budget; it and the steps after it are run alone, under budgets of their own", () => {
    const alone: Array<string> = []
    const out = underOneTimeout(
      ["a", "LOOP", "b", "c"],
      (item) => {
        if (item === "LOOP") {
          for (;;) {
            // a run whose checking never ends
          }
        }
        return `${item}: checked in the batch`
      },
      // long enough for "a" on a loaded machine (at 50 ms a CI run under load once stopped the batch before it)
      500,
      (item) => {
        alone.push(item)
        return item === "LOOP" ? "LOOP: over the time budget" : `${item}: checked alone`
      }
    )
    expect(out).toEqual(["a: checked in the batch", "LOOP: over the time budget", "b: checked alone", "c: checked alone"])
    expect(alone).toEqual(["LOOP", "b", "c"])
  })

  it("a step that throws leaves the batch: the rest are run alone, the steps before it keep their results", () => {
    const out = underOneTimeout(
      [1, 2, 3],
      (n) => {
        if (n === 2) throw new Error("boom")
        return n * 10
      },
      1000,
      (n) => -n
    )
    expect(out).toEqual([10, -2, -3])
  })
})
