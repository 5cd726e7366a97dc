/**
 * The live leaderboard renders what scoring decided, as `report` does: its rows in the board's own
 * ranking (a post-deadline run with the best figure listed last, unranked), the tied-with-best
 * marks of `@stseval/scoring/Marks` (the same as `Marks.compute` on `Engine.score` of the folder),
 * and each dataset's figure by the metric its ranking orders by (Spearman on SemRel, not Pearson).
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Engine, Rank } from "@stseval/scoring"
import { Footnotes } from "@stseval/tables"
import * as Marks from "@stseval/scoring/Marks"
import { Effect, Layer, References } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import type * as Leaderboard from "../src/Leaderboard.js"
import * as BoardPage from "../src/BoardPage.js"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import * as Watcher from "../src/Watcher.js"
import { board, sts2017Session, tempDir } from "./fixtures/harness.js"

const quiet = <A, E>(self: Effect.Effect<A, E>) => Effect.runPromise(self.pipe(Effect.provideService(References.MinimumLogLevel, "None")))

let state = 24
const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
const normal = () => (rand() + rand() + rand() - 1.5) * 2

describe("STS 2017 on the board: the board's ranking, the marks scoring decides", () => {
  const noisy = (g: ReadonlyArray<number>, sd: number) => g.map((v) => `${Math.round((v + sd * normal()) * 1000) / 1000}\n`).join("")
  const { goldDir, folder } = sts2017Session("marks", 40, rand, (g) => ({
    Ace_run1primary: noisy(g, 0.6),
    Bee_run1primary: noisy(g, 0.62),
    Cat_run1primary: noisy(g, 2.5),
    // the best figures, after the deadline (run.json)
    Late_run1primary: noisy(g, 0.05)
  }))
  fs.writeFileSync(path.join(folder, "Late_run1primary", "run.json"), JSON.stringify({ team: "Late", run: 1, primary: true, postDeadline: true }))
  const sts2017 = Registry.get("sts2017")!
  const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: sts2017, gold: goldDir }), NodeServices.layer)
  const out = tempDir("marks-out")
  let b: Leaderboard.Leaderboard
  let expected: Marks.Marks
  beforeAll(async () => {
    await quiet(Watcher.watch({ folder, out, once: true }).pipe(Effect.provide(layer)))
    b = board(out)!
    const results = await quiet(Engine.score({ task: sts2017, gold: goldDir, folder, primaryOnly: false }).pipe(Effect.provide(NodeServices.layer)))
    expected = Marks.compute(results)
  })

  it("leaderboard.json carries the marks Marks.compute gives on Engine.score of the folder: same best, same tied runs, every figure", () => {
    expect(b.marks?.map((m) => m.key)).toEqual(expected.figures.map((m) => m.key))
    expect(b.marks).toEqual(expected.figures.map(Marks.toJson))
    const official = b.marks!.find((m) => m.key === "aggregate:official")!
    expect(official).toMatchObject({ best: "Ace/run1", test: "bootstrap", aggregate: "unweighted" })
    expect(official.tied).toContain("Ace/run1")
    expect(official.tied).not.toContain("Cat/run1")
  })

  it("the post-deadline run with the best figure is listed last, unranked, never the best; the pages show the board's order and marks", () => {
    const entries = b.rankings[0].entries
    expect(entries.map((e) => [e.id, e.rank])).toEqual([["Ace/run1", 1], ["Bee/run1", 2], ["Cat/run1", 3], ["Late/run1", null]])
    expect(entries[3].value).toBeGreaterThan(entries[0].value!)
    const md = fs.readFileSync(path.join(out, "leaderboard.md"), "utf8")
    const rows = md.split("\n").filter((l) => /^\| (Ace|Bee|Cat|Late)\//.test(l))
    expect(rows.map((l) => l.split("|")[1].trim())).toEqual(["Ace/run1", "Bee/run1", "Cat/run1", "Late/run1\u2020"])
    // Ace: rank 1, bold (tied with itself) and the bullet; Late: no rank, no bullet
    expect(rows[0]).toMatch(/\| +1 \| +\*\*\d+\.\d\d\*\* • \|/)
    expect(rows[3]).toMatch(/\| +- \| +(\*\*)?\d+\.\d\d(\*\*)? \|/)
    // one footnote per rule, naming its columns (issue 32), and saying the test, resamples, p and correction (issue 35)
    expect(md).toContain(
      "Bold in official (Pearson): not significantly different from the best ranked run (paired bootstrap stratified by dataset (unweighted mean), 1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted, p \\> 0.05)."
    )
    expect(md).toMatch(/Bold in ar-ar, ar-en, es-es, es-en, es-en WMT, en-en, tr-en: not significantly different from the best ranked run \(Williams' t, Holm-adjusted, p \\> 0\.05\)\./)
    // the datasets headed by the edition's display names, as the report heads them (track 4b: its own header)
    expect(md).toContain("datasets (Pearson) en-en")
    expect(md).not.toContain("track5.en-en |")
    const headers = BoardPage.toTable(b, sts2017).columns.filter((c) => c.key.startsWith("dataset.")).map((c) => c.header)
    expect(headers).toEqual(["ar-ar", "ar-en", "es-es", "es-en", "es-en WMT", "en-en", "tr-en"])
  })

  it("the board's bullets and footnotes are decided where the report's are: Rank.best among the ranked runs, the tables' Footnotes", () => {
    const t = BoardPage.toTable(b, sts2017)
    expect(t.footnotes).toContain(Footnotes.best)
    const ranked = new Set(b.rankings[0].entries.flatMap((e) => (e.rank !== null ? [e.id] : [])))
    const columns = t.columns.filter((c) => c.key.startsWith("dataset."))
    expect(columns).toHaveLength(7)
    for (const c of columns) {
      const name = c.key.slice("dataset.".length)
      const valueOf = (id: string) => b.runs.find((r) => r.id === id)?.datasets.find((d) => d.dataset === name)?.value
      const best = Rank.best([...ranked].map(valueOf), "higher")
      const bulleted = t.sections[0].rows.filter((r) => r.cells[c.key]?.marks.includes("best")).map((r) => r.id)
      // the post-deadline run has the best figures and is never bulleted
      expect(bulleted.length).toBeGreaterThan(0)
      expect(bulleted).not.toContain("Late/run1")
      expect(bulleted.every((id) => valueOf(id) === best)).toBe(true)
    }
  })

  it("the rows follow the board's ranking as it is, never sorted again", () => {
    const reversed: Leaderboard.Leaderboard = { ...b, rankings: b.rankings.map((k) => ({ ...k, entries: [...k.entries].reverse() })) }
    expect(BoardPage.toTable(reversed, sts2017).sections[0].rows.map((r) => r.id)).toEqual(["Late/run1", "Cat/run1", "Bee/run1", "Ace/run1"])
  })
})

describe("SemRel on the board: each dataset column is the language's Spearman", () => {
  const root = tempDir("semrel")
  const goldFile = path.join(root, "eng_test_with_labels.csv")
  const ids = Array.from({ length: 30 }, (_, i) => `eng-${i + 1}`)
  const gold = ids.map((_, i) => ((i * 37) % 101) / 100)
  fs.writeFileSync(goldFile, `PairID,Text,Score\n${ids.map((id, i) => `${id},"a\nb",${gold[i]}\n`).join("")}`)
  const folder = path.join(root, "subs")
  // a monotone but non-linear run: Spearman 1, Pearson below 1
  const runs: Record<string, ReadonlyArray<number>> = { Cube_run1primary: gold.map((g) => g ** 3), Noisy_run1primary: gold.map((g, i) => g + 0.3 * Math.sin(i * 7.1)) }
  for (const [name, scores] of Object.entries(runs)) {
    fs.mkdirSync(path.join(folder, name), { recursive: true })
    fs.writeFileSync(path.join(folder, name, "pred_eng.csv"), `PairID,Pred_Score\n${ids.map((id, i) => `${id},${scores[i]}\n`).join("")}`)
  }
  const semrel = Registry.get("semrel2024-a")!
  const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: semrel, gold: goldFile }), NodeServices.layer)
  const out = tempDir("semrel-out")

  it("the datasets carry metric spearman and the Spearman figure; the page's group header names Spearman", async () => {
    await quiet(Watcher.watch({ folder, out, once: true }).pipe(Effect.provide(layer)))
    const b = board(out)!
    const cube = b.runs.find((r) => r.id === "Cube/run1")!.datasets.find((d) => d.dataset === "eng")!
    expect(cube.metric).toBe("spearman")
    expect(cube.value).toBeCloseTo(1, 12)
    const md = fs.readFileSync(path.join(out, "leaderboard.md"), "utf8")
    // eng is ranked on its own: its Spearman is in its ranking's group, beside its rank, and not
    // repeated in a datasets group (issue 32: the page was twice as wide as it needs)
    expect(md).toMatch(/\| eng Rank \| eng Spearman \|/)
    expect(md).not.toContain("datasets (Spearman) eng")
    const columns = BoardPage.toTable(b, Registry.get("semrel2024-a")).columns.map((c) => c.key)
    expect(columns.filter((k) => k.startsWith("eng."))).toEqual(["eng.rank", "eng.value"])
    expect(columns).not.toContain("dataset.eng")
    // each language is a ranking of its own, by Spearman
    expect(b.rankings.find((k) => k.ranking === "eng")).toMatchObject({ metric: "spearman" })
    expect(b.marks?.find((m) => m.key === "eng:spearman")).toMatchObject({ best: "Cube/run1", test: "bootstrap" })
  })
})

describe("a figure the board does not have says which kind it is", () => {
  const noisy = (g: ReadonlyArray<number>, sd: number) => g.map((v) => `${Math.round((v + sd * normal()) * 1000) / 1000}\n`).join("")
  const { goldDir, folder } = sts2017Session("kinds", 30, rand, (g) => ({ Ace_run1primary: noisy(g, 0.6), Dee_run1primary: noisy(g, 0.8) }))
  // Dee: no ar-ar file, an ar-en file with a line that is not a number, hence no Primary
  const sts2017 = Registry.get("sts2017")!
  const [arar, aren] = ["track1.ar-ar", "track2.ar-en"].map((name) => sts2017.datasets.find((d) => d.name === name)!.run)
  fs.rmSync(path.join(folder, "Dee_run1primary", arar))
  const broken = path.join(folder, "Dee_run1primary", aren)
  fs.writeFileSync(broken, fs.readFileSync(broken, "utf8").replace(/^[^\n]*/, "abc"))
  const out = tempDir("kinds-out")
  const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: sts2017, gold: goldDir }), NodeServices.layer)
  beforeAll(async () => {
    await quiet(Watcher.watch({ folder, out, once: true, settle: 0 }).pipe(Effect.provide(layer)))
  })

  it("leaderboard.json keeps each dataset's status; the pages print - (not submitted), x (not scored) and n/a (undefined), each with its legend line and no 'hover'", () => {
    const b = board(out)!
    const dee = b.runs.find((r) => r.id === "Dee/run1")!
    expect(dee.datasets.find((d) => d.dataset === "track1.ar-ar")).toMatchObject({ value: null, status: "missing" })
    expect(dee.datasets.find((d) => d.dataset === "track2.ar-en")).toMatchObject({ value: null, status: "not-scored" })
    const table = BoardPage.toTable(b, sts2017)
    const row = table.sections[0].rows.find((r) => r.id === "Dee/run1")!
    const text = (key: string) => {
      const cell = row.cells[key]
      return cell?._tag === "missing" ? cell.kind : cell?._tag
    }
    expect([text("dataset.track1.ar-ar"), text("dataset.track2.ar-en"), text(`${b.rankings[0].ranking}.value`)]).toEqual(["notSubmitted", "failed", "undefined"])
    const md = BoardPage.markdown(b, sts2017)
    const line = md.split("\n").find((l) => l.startsWith("| Dee/run1"))!
    expect(line.split("|").map((c) => c.trim())).toEqual(expect.arrayContaining(["-", "x", "n/a"]))
    for (const legend of ["-: not submitted", "x: not scored", "n/a: scored, but the figure is undefined", "- in a Rank column"]) expect(md).toContain(legend)
    expect(md).not.toMatch(/hover/i)
  })
})
