import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect, FileSystem, PlatformError } from "effect"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ResultJson } from "@stseval/scoring"
import { Engine, Signature } from "@stseval/scoring"
import { Submissions } from "@stseval/formats"
import { lines, numeric, repoRoot, toyEdition, expectClose } from "./helpers.js"

const run = <A, E>(e: Effect.Effect<A, E, NodeServices.NodeServices>) => Effect.runPromise(e.pipe(Effect.provide(NodeServices.layer)))

// A gold folder and a submissions folder on disk, for the toy edition (datasets a and b):
// gold a = 1, <blank>, 3, 4, 2 and b = 1, 2, 3 (see Sts.test.ts: run a = 1 9 2 4 3 has r = 0.8).
let root = ""
const edition = toyEdition()
const write = (rel: string, content: string | Uint8Array) => {
  const p = path.join(root, rel)
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, content)
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-scoring-"))
  write("gold/STS.gs.a.txt", lines([1, "", 3, 4, 2]))
  write("gold/STS.gs.b.txt", lines([1, 2, 3]))
  const good = { a: lines([1, 9, 2, 4, 3]), b: lines([1, 2, 3]) }
  for (const name of ["Alpha_run1primary", "Tie_run1primary", "Alpha_run2"]) {
    write(`subs/${name}/STS.output.a.txt`, good.a)
    write(`subs/${name}/STS.output.b.txt`, good.b)
  }
  // constant on a: Pearson undefined there, counts as r = 0 -> (0 * 4 + 1 * 3) / 7
  write("subs/Beta_run1primary/STS.output.a.txt", lines([2, 2, 2, 2, 2]))
  write("subs/Beta_run1primary/STS.output.b.txt", good.b)
  // nothing that matches a dataset
  write("subs/Broken_run1primary/output.txt", "1\n")
  // a zip that is not a zip
  write("subs/Zipped_run1primary.zip", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))
})
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

describe("Engine.score: a submissions folder", () => {
  it("scores every run independently and ranks the primary ones; failed runs listed, never ranked", async () => {
    const results = await run(Engine.score({ task: edition, gold: path.join(root, "gold"), folder: path.join(root, "subs") }))
    expect(results.runs.map((r) => r.meta.id).sort()).toEqual(
      ["Alpha/run1", "Alpha/run2", "Beta/run1", "Broken/run1", "Tie/run1", "Zipped/run1"].sort()
    )
    const entries = results.ranked.rankings[0].entries
    expect(entries.map((e) => [e.rank, e.meta.team])).toEqual([
      [1, "Alpha"],
      [1, "Tie"],
      [3, "Beta"],
      [undefined, "Broken"],
      [undefined, "Zipped"]
    ])
    expectClose(entries[0].value, (0.8 * 4 + 3) / 7)
    expectClose(entries[2].value, 3 / 7)
    expect(results.ranked.excluded).toBe(1)
    const zipped = results.runs.find((r) => r.meta.team === "Zipped")!
    expect(zipped.status).toBe("failed")
    expect(zipped.errors.length).toBeGreaterThan(0)
    const doc = ResultJson.resultsToJson(results)
    expect(doc.rankings!.rankings[0].entries[3].rank).toBeNull()
  })

  it("all runs on request", async () => {
    const results = await run(Engine.score({ task: edition, gold: path.join(root, "gold"), folder: path.join(root, "subs"), primaryOnly: false }))
    expect(results.ranked.rankings[0].entries.filter((e) => e.rank === 1).map((e) => e.meta.id)).toEqual(["Alpha/run1", "Alpha/run2", "Tie/run1"])
  })

  it("a submissions folder that does not exist is an InputError naming it", async () => {
    const folder = path.join(root, "nope")
    const error = await Effect.runPromise(
      Engine.score({ task: edition, gold: path.join(root, "gold"), folder }).pipe(Effect.flip, Effect.provide(NodeServices.layer))
    )
    expect(error._tag).toBe("InputError")
    expect(error.message).toBe(`${folder}: no such file or folder`)
  })

  it("a submissions folder that exists but cannot be read is a FolderError naming it", async () => {
    const folder = path.join(root, "subs")
    // root reads any folder, so the failing read is injected: the real file system, except that
    // listing this one folder fails as an unreadable folder does
    const failing = Effect.gen(function* () {
      const real = yield* FileSystem.FileSystem
      return FileSystem.FileSystem.of({
        ...real,
        readDirectory: (p, options) =>
          p === folder
            ? Effect.fail(PlatformError.systemError({ _tag: "PermissionDenied", module: "FileSystem", method: "readDirectory", pathOrDescriptor: p }))
            : real.readDirectory(p, options)
      })
    })
    const error = await Effect.runPromise(
      Effect.flatMap(failing, (fs) =>
        Engine.score({ task: edition, gold: path.join(root, "gold"), folder }).pipe(Effect.flip, Effect.provideService(FileSystem.FileSystem, fs))
      ).pipe(Effect.provide(NodeServices.layer))
    )
    expect(error._tag).toBe("FolderError")
    expect(error.message.startsWith(`${folder}: `)).toBe(true)
  })
})

describe("Engine.score: runs given by path", () => {
  it("a run path that does not exist stops everything with an InputError naming the file; a bad run that exists is a failed run, the others are still scored", async () => {
    const missing = path.join(root, "subs/missing_run1primary")
    const error = await Effect.runPromise(
      Engine.score({ task: edition, gold: path.join(root, "gold"), runs: [missing, path.join(root, "subs/Alpha_run1primary")] }).pipe(
        Effect.flip,
        Effect.provide(NodeServices.layer)
      )
    )
    expect(error._tag).toBe("InputError")
    expect(error.message).toBe(`${missing}: no such file or folder`)
    // paths are read concurrently, yet the error is always the first bad path in the order given
    const second = path.join(root, "subs/also-missing_run2")
    for (const runs of [[path.join(root, "subs/Alpha_run1primary"), second, missing], [missing, second]]) {
      const first = await Effect.runPromise(
        Engine.score({ task: edition, gold: path.join(root, "gold"), runs }).pipe(Effect.flip, Effect.provide(NodeServices.layer))
      )
      expect(first.message).toBe(`${runs.find((r) => r !== path.join(root, "subs/Alpha_run1primary"))}: no such file or folder`)
    }
    const results = await run(
      Engine.score({
        task: edition,
        gold: path.join(root, "gold"),
        runs: [path.join(root, "subs/Zipped_run1primary.zip"), path.join(root, "subs/Alpha_run1primary")]
      })
    )
    expect(results.runs[0].status).toBe("failed")
    expect(results.runs[0].errors[0].code).toBe("file-unreadable")
    expect(results.runs[1].status).toBe("scored")
    expectClose(results.runs[1].official[0].value, (0.8 * 4 + 3) / 7)
  })

  it("a gold that does not exist is a GoldError naming it; a gold folder without the edition's files: every dataset not scored, the gold issues say where it looked", async () => {
    const noGold = path.join(root, "no-gold")
    const error = await Effect.runPromise(
      Engine.score({ task: edition, gold: noGold, runs: [path.join(root, "subs/Alpha_run1primary")] }).pipe(Effect.flip, Effect.provide(NodeServices.layer))
    )
    expect(error._tag).toBe("GoldError")
    expect(error.message).toBe(`--gold: ${noGold} does not exist`)
    const empty = path.join(root, "empty-gold")
    fs.mkdirSync(empty, { recursive: true })
    const results = await run(Engine.score({ task: edition, gold: empty, runs: [path.join(root, "subs/Alpha_run1primary")] }))
    expect(results.gold.missing).toEqual(["a", "b"])
    expect(results.gold.issues.map((i) => [i.code, i.file])).toEqual([
      ["file-unreadable", path.join(empty, "STS.gs.a.txt")],
      ["file-unreadable", path.join(empty, "STS.gs.b.txt")]
    ])
    expect(results.runs[0].status).toBe("failed")
  })

  it("an unknown edition id fails with the registry's EditionError", async () => {
    const exit = await Effect.runPromiseExit(Engine.score({ task: "sts1999", runs: [] }).pipe(Effect.provide(NodeServices.layer)))
    expect(exit._tag).toBe("Failure")
    expect(JSON.stringify(exit)).toMatch(/EditionError/)
  })
})

describe("Engine.loadContext + Engine.scoreSubmission: the two halves of Engine.score", () => {
  it("score a loaded run exactly as Engine.score does, keeping the aligned scores", async () => {
    const context = await run(Engine.loadContext({ task: edition, gold: path.join(root, "gold") }))
    const found = await run(Submissions.discover(path.join(root, "subs"), edition))
    const alpha = found.runs.find((s) => s.meta.id === "Alpha/run1")!
    const scored = await run(Engine.scoreSubmission(context, alpha))
    const whole = await run(Engine.score({ task: edition, gold: path.join(root, "gold"), folder: path.join(root, "subs") }))
    expect(scored).toEqual(whole.runs.find((r) => r.meta.id === "Alpha/run1"))
    const a = scored.datasets.find((d) => d.dataset === "a")!
    expectClose(a.figures.pearson, 0.8)
    // gold a = 1, <blank>, 3, 4, 2: the blank line is not scored, so four aligned pairs
    expect(Array.from(numeric(a.aligned).gold)).toEqual([1, 3, 4, 2])
    expect(Array.from(numeric(a.aligned).run)).toEqual([1, 2, 4, 3])
  })

  it("a gold path that does not exist: loadContext does not fail, the gold issue says where it looked and every dataset is not scored", async () => {
    const context = await run(Engine.loadContext({ task: edition, gold: path.join(root, "no-gold") }))
    expect(context.gold.issues[0].code).toBe("file-unreadable")
    expect(context.gold.issues[0].message).toContain(path.join(root, "no-gold"))
    expect(context.gold.missing).toEqual(["a", "b"])
    const found = await run(Submissions.discover(path.join(root, "subs"), edition))
    expect((await run(Engine.scoreSubmission(context, found.runs.find((s) => s.meta.id === "Alpha/run1")!))).status).toBe("failed")
  })
})

describe("run identity", () => {
  it("a run that cannot be read keeps the id discovery gives it (foo.txt -> foo, Team-Name.txt -> Team-Name); one that does not exist is an InputError naming it", async () => {
    for (const [name, id] of [["foo.txt", "foo"], ["Team-Name.txt", "Team-Name"], ["ECNU_run2.zip", "ECNU/run2"]] as const) {
      // not a run of the toy edition (a folder edition): a plain file, or a zip that is not a zip
      write(`unreadable/${name}`, name.endsWith(".zip") ? new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]) : "1\n")
      const results = await run(Engine.score({ task: edition, gold: path.join(root, "gold"), runs: [path.join(root, "unreadable", name)] }))
      const failed = results.runs[0]
      expect(failed.status).toBe("failed")
      expect(failed.meta.id).toBe(id)
      expect(failed.meta.id).toBe(Submissions.metaFromName(name).id)
      const missing = path.join(root, "nowhere", name)
      const error = await Effect.runPromise(
        Engine.score({ task: edition, gold: path.join(root, "gold"), runs: [missing] }).pipe(Effect.flip, Effect.provide(NodeServices.layer))
      )
      expect(error._tag).toBe("InputError")
      expect(error.message).toBe(`${missing}: no such file or folder`)
    }
  })
})

describe("Engine.score: the one way into scoring", () => {
  it("a folder: every run scored, ranked, signed, with the aligned scores (one gold array shared by every run)", async () => {
    const results = await run(Engine.score({ task: edition, gold: path.join(root, "gold"), folder: path.join(root, "subs") }))
    expect(results.signature.text).toBe(Signature.make(edition, results.gold).text)
    expect(results.ranked.rankings[0].entries.map((e) => [e.rank, e.meta.id])).toEqual([
      [1, "Alpha/run1"],
      [1, "Tie/run1"],
      [3, "Beta/run1"],
      [undefined, "Broken/run1"],
      [undefined, "Zipped/run1"]
    ])
    const alpha = results.runs.find((r) => r.meta.id === "Alpha/run1")!
    const tie = results.runs.find((r) => r.meta.id === "Tie/run1")!
    // dataset a: gold line 2 is blank (not annotated), so 4 pairs: gold 1 3 4 2, run 1 2 4 3
    expect(Array.from(numeric(alpha.datasets[0].aligned).gold)).toEqual([1, 3, 4, 2])
    expect(Array.from(numeric(alpha.datasets[0].aligned).run)).toEqual([1, 2, 4, 3])
    expect(tie.datasets[0].aligned!.gold).toBe(alpha.datasets[0].aligned!.gold)
    expect(results.runs.find((r) => r.meta.id === "Zipped/run1")!.datasets[0].aligned).toBeUndefined()
  })

  it("the result keeps no run's bytes: only the aligned numeric arrays (what everything downstream reads)", async () => {
    const results = await run(Engine.score({ task: edition, gold: path.join(root, "gold"), folder: path.join(root, "subs") }))
    const kept: Array<string> = []
    const seen = new Set<unknown>()
    const walk = (x: unknown, where: string): void => {
      if (x === null || typeof x !== "object" || seen.has(x)) return
      seen.add(x)
      if (ArrayBuffer.isView(x)) {
        if (!(x instanceof Float64Array)) kept.push(`${where}: ${x.constructor.name}`)
        return
      }
      for (const [k, v] of Object.entries(x)) {
        if (k === "files" || k === "bytes") kept.push(`${where}.${k}`)
        walk(v, `${where}.${k}`)
      }
    }
    walk(results.runs, "runs")
    walk(results.ranked, "ranked")
    expect(kept).toEqual([])
    // and the arrays it keeps are the scored pairs, not larger buffers they were cut from
    for (const r of results.runs) {
      for (const d of r.datasets) if (d.aligned?.kind === "scores") expect(d.aligned.run.buffer.byteLength, `${r.meta.id} ${d.dataset}`).toBe(d.aligned.run.length * 8)
    }
  })

  it("runs and submissions folders given by path, all runs ranked on request", async () => {
    const results = await run(
      Engine.score({ task: edition, gold: path.join(root, "gold"), runs: [path.join(root, "subs/Beta_run1primary"), path.join(root, "subs/Alpha_run2")], primaryOnly: false })
    )
    expect(results.runs.map((r) => r.meta.id)).toEqual(["Beta/run1", "Alpha/run2"])
    expect(results.ranked.rankings[0].entries.map((e) => e.meta.id)).toEqual(["Alpha/run2", "Beta/run1"])
  })

  it("what stops everything is a typed error: no gold, a path that does not exist", async () => {
    const gold = await Effect.runPromise(
      Engine.score({ task: edition, gold: path.join(root, "no-gold"), folder: path.join(root, "subs") }).pipe(Effect.flip, Effect.provide(NodeServices.layer))
    )
    expect(gold._tag).toBe("GoldError")
    expect(gold.message).toContain("no-gold does not exist")
    const input = await Effect.runPromise(
      Engine.score({ task: edition, gold: path.join(root, "gold"), runs: [path.join(root, "nowhere")] }).pipe(Effect.flip, Effect.provide(NodeServices.layer))
    )
    expect(input._tag).toBe("InputError")
    expect(input.message).toBe(`${path.join(root, "nowhere")}: no such file or folder`)
  })
})

describe("Engine.score: the figures the caller will read (figuresRead)", () => {
  const sick = { task: "sick2014", gold: path.join(repoRoot, "examples/sick2014/SICK_test_annotated.txt"), folder: path.join(repoRoot, "examples/sick2014/submissions") }
  // each figure of each scored dataset: whether it is its ranking's, and whether it is already
  // computed (a value) or left until it is first read (a getter)
  const figures = (results: Engine.Results) =>
    results.runs.flatMap((r) =>
      r.datasets.flatMap((d) => (d.status === "scored" ? Object.keys(d.figures).map((m) => ({ ranked: m === d.metric, computed: "value" in Object.getOwnPropertyDescriptor(d.figures, m)! })) : []))
    )

  it.each([
    ["runs scored on this thread", {}],
    ["runs scored in isolated scorers, their figures as they are answered", { inThreadMb: 0 }]
  ])("%s: 'all' has every figure computed once the scoring returns, 'ranked' (the default) only the ranked one", async (_, isolation) => {
    const all = await run(Engine.score({ ...sick, isolation, figuresRead: "all" }))
    const ranked = await run(Engine.score({ ...sick, isolation }))
    expect(figures(ranked).filter((f) => !f.ranked).length).toBeGreaterThan(0)
    expect(figures(all).every((f) => f.computed)).toBe(true)
    expect(figures(ranked).every((f) => f.computed === f.ranked)).toBe(true)
    // the same figures either way (reading them computes the lazy ones)
    expect(ResultJson.resultsToJson(all)).toEqual(ResultJson.resultsToJson(ranked))
  })
})

describe("Engine's public entries", () => {
  // scoreSubmission is scoreSubmissions of one run (IsolationBatch.test.ts: the same answers)
  it("score, its two halves and its steps; no second way into scoring with other answers", () => {
    expect(Object.keys(Engine).sort()).toEqual(
      ["FolderError", "GoldError", "InputError", "goldPath", "inputs", "loadContext", "score", "scoreSubmission", "scoreSubmissions", "submissionsFolder"].sort()
    )
  })
})
