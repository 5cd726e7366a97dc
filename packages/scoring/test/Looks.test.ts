/**
 * The file-system calls `rank` makes per run (issue 36): each entry of a submissions folder is
 * looked at once, by the engine sharing the runs out, and its reader is told what it is instead of
 * looking again. Counted through Node's own `fs` (spied, and the ES module bindings synchronised
 * with it), so the code under test is no different.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as fs from "node:fs"
import { syncBuiltinESMExports } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { Engine } from "@stseval/scoring"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { repoRoot } from "./helpers.js"

const gold = path.join(repoRoot, "examples/sick2014/SICK_test_annotated.txt")
const realRun = path.join(repoRoot, "examples/sick2014/submissions/MeaningFactory_run1primary.txt")

const score = (folder: string) => Effect.runPromise(Engine.score({ task: "sick2014", gold, folder }).pipe(Effect.provide(NodeServices.layer)))

// Node's own modules as CommonJS objects: their properties can be replaced (an ES namespace's cannot)
const nodeFs = process.getBuiltinModule("node:fs")
const restores: Array<() => void> = []

/** Every look at a path (`lstat` and `stat`, synchronous or not), counted by path. */
const looks = () => {
  const seen: Array<string> = []
  type Calls = Record<string, (...args: Array<unknown>) => unknown>
  for (const [o, name] of [
    [nodeFs, "lstatSync"],
    [nodeFs, "statSync"],
    [nodeFs.promises, "lstat"],
    [nodeFs.promises, "stat"]
  ] as const) {
    const calls = o as unknown as Calls
    const original = calls[name]
    calls[name] = (p: unknown, ...rest: Array<unknown>) => {
      seen.push(String(p))
      return original.call(o, p, ...rest)
    }
    restores.push(() => (calls[name] = original))
  }
  syncBuiltinESMExports()
  return (p: string) => seen.filter((s) => s === p).length
}

afterEach(() => {
  for (const restore of restores.splice(0)) restore()
  syncBuiltinESMExports()
})

describe("a submissions folder's runs are looked at once each", () => {
  it("each plain run file: one look, by the engine (its reader is told what it is), and every run scored as before", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-looks-"))
    const names = ["A_run1primary.txt", "B_run1primary.txt", "C_run1primary.txt"]
    for (const n of names) fs.copyFileSync(realRun, path.join(dir, n))
    const count = looks()
    const results = await score(dir)
    expect(results.runs.map((r) => [r.meta.team, r.status])).toEqual([
      ["A", "scored"],
      ["B", "scored"],
      ["C", "scored"]
    ])
    expect(names.map((n) => count(path.join(dir, n)))).toEqual([1, 1, 1])
  })

  it("a link among them: its look and its target's (the reader still refuses a link to another run)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-looks-"))
    fs.copyFileSync(realRun, path.join(dir, "A_run1primary.txt"))
    fs.symlinkSync(path.join(dir, "A_run1primary.txt"), path.join(dir, "Twin_run1primary.txt"))
    const count = looks()
    const results = await score(dir)
    expect(results.runs.map((r) => [r.meta.team, r.status])).toEqual([
      ["A", "scored"],
      ["Twin", "failed"]
    ])
    expect(results.runs[1].errors.map((e) => e.code)).toEqual(["outside-folder"])
    // lstat and stat by the engine; the link's checks (`linkProblem`) resolve it, they do not stat it
    expect(count(path.join(dir, "Twin_run1primary.txt"))).toBe(2)
  })
})
