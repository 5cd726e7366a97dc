/**
 * End to end through the scoring engine: runs (as files in memory) are validated and scored by
 * `@stseval/scoring`, adapted by `FromScoring`, and laid out; the printed figures are the
 * published ones (STS 2014 Table 3, STS 2017 Table 10) or the official R scorer's (SICK post-task
 * runs, ../shared/reference).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Gold, Registry } from "@stseval/formats"
import type { Submissions } from "@stseval/formats"
import { Engine, Rank } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { Footnotes, FromScoring, Presets, Table } from "../src/index.js"
import { hasShared, readGold, runWithPearson, sharedDir, syntheticGold } from "./helpers.js"

const edition = (id: string) => {
  const e = Registry.get(id)
  if (e === undefined) throw new Error(`no edition ${id}`)
  return e
}
const enc = new TextEncoder()
const lines = (xs: Float64Array) => Array.from(xs, (x) => String(x)).join("\n") + "\n"

/** Gold scores of a dataset: the real gold file when ../shared is there, else synthetic. */
const goldScores = (file: string, n: number, seed: number) => {
  const p = path.join(sharedDir, "data", file)
  return hasShared && fs.existsSync(p) ? readGold(p) : syntheticGold(n, seed)
}

const submission = (id: string, team: string, run: number | undefined, files: Record<string, Float64Array>, meta: Partial<Submissions.RunMeta> = {}): Submissions.Submission => ({
  meta: { id, team, run, primary: true, late: false, corrected: false, postDeadline: false, ...meta },
  path: `subs/${id}`,
  kind: "folder",
  files: Object.entries(files).map(([name, xs]) => ({ name, path: `subs/${id}/${name}`, bytes: enc.encode(lines(xs)) })),
  issues: []
})

/** Scored, ranked (every run, as `report` ranks the STS tables) and marked as `stseval report` does. */
const score = async (ed: Registry.TaskEdition, gold: Gold.Gold, subs: ReadonlyArray<Submissions.Submission>) => {
  const scored = await Effect.runPromise(Effect.forEach(subs, (s) => Engine.scoreSubmission({ edition: ed, gold, goldPath: undefined }, s)))
  const results = { edition: ed, runs: scored, ranked: Rank.rank(scored, { primaryOnly: false }) }
  return FromScoring.fromResults(results, { marks: Marks.compute(results) })
}

const cell = (t: Table.Table, id: string, key: string): string => {
  const row = Table.rows(t).find((r) => r.id === id)
  const col = t.columns.find((c) => c.key === key)
  if (row === undefined || col === undefined) throw new Error(`no cell ${id} ${key}`)
  return Table.cellText(row.cells[key], col)
}

describe("STS 2014 Table 3 through the scoring engine", () => {
  const ed = edition("sts2014")
  const golds = ed.datasets.map((d, i) => goldScores(`sts2014/test-en/${d.gold}`, d.pairs ?? 750, 50 + i))
  const gold = Gold.goldFromTexts(ed, ed.datasets.map((d, i) => ({ dataset: d.name, file: d.gold, content: lines(golds[i]) })))
  const runFiles = (rs: Partial<Record<string, number>>) =>
    Object.fromEntries(ed.datasets.flatMap((d, i) => (rs[d.name] === undefined ? [] : [[d.run, runWithPearson(golds[i], rs[d.name] as number, i + 1)]])))
  const five = Object.fromEntries(ed.datasets.filter((d) => d.name !== "OnWN").map((d) => [d.name, 0.635]))
  const scoring = score(ed, gold, [
    submission("LIPN/run1", "LIPN", 1, runFiles(five)),
    submission("LIPN/run2", "LIPN", 2, runFiles({ "deft-forum": 0.084 })),
    submission("Late/run1", "Late", 1, runFiles(Object.fromEntries(ed.datasets.map((d) => [d.name, 0.7]))), { late: true }),
    submission("After/run1", "After", 1, runFiles({ headlines: 0.5 }), { postDeadline: true })
  ])
  let results!: Awaited<typeof scoring>
  let t!: ReturnType<typeof Presets.preset>
  beforeAll(async () => {
    results = await scoring
    t = Presets.preset("sts2014-table3", results)
  })

  it("the engine's weighted mean (missing dataset = 0) prints as published: 0.508, 0.010", () => {
    expect(cell(t, "LIPN/run1", "wmean")).toBe("0.508")
    expect(cell(t, "LIPN/run2", "wmean")).toBe("0.010")
    expect(cell(t, "LIPN/run1", "OnWN")).toBe("-")
    expect(cell(t, "LIPN/run2", "deft-forum")).toBe("0.084")
    // the post-deadline run is listed, never ranked: it pushes no ranked run down
    expect(Table.rows(t).map((r) => r.id)).toEqual(["Late/run1", "LIPN/run1", "LIPN/run2", "After/run1"])
    expect(["Late/run1", "LIPN/run1", "LIPN/run2", "After/run1"].map((id) => cell(t, id, "rank"))).toEqual(["1", "2", "3", "-"])
    expect(cell(t, "Late/run1", "run")).toBe("Late/run1")
    expect(Table.rows(t)[0].marks).toEqual(["late"])
    // run.json's postDeadline reaches the table as the dagger mark, explained in a footnote
    // (it lacks five datasets: its mean counts them as 0, marked as every such run is)
    expect(Table.rows(t).find((r) => r.id === "After/run1")?.marks).toEqual(["postDeadline", "zeroed"])
    expect(t.footnotes.join(" ")).toContain("post-deadline")
    // a dataset counted as 0 (missingDataset: zero) is marked on the run and said in a footnote
    expect(Table.rows(t).find((r) => r.id === "LIPN/run1")?.marks).toEqual(["zeroed"])
    expect(Table.rows(t).find((r) => r.id === "LIPN/run2")?.marks).toEqual(["zeroed"])
    expect(t.footnotes).toContain(Footnotes.zeroed)
  })
  it("carries gold and run scores for significance and plots", () => {
    expect(results.datasets.find((d) => d.name === "headlines")?.gold?.length).toBe(750)
    expect(results.runs.find((r) => r.id === "LIPN/run1")?.scores?.headlines?.length).toBe(750)
    // the best RANKED runs are plotted: LIPN/run1 and Late/run1 (After/run1 came after the deadline), and the page says so
    expect(t.scatter?.filter((s) => s.dataset === "headlines").map((s) => s.runId)).toEqual(["Late/run1", "LIPN/run1"])
    expect(t.scatterNote).toMatch(/best ranked runs/)
  })
})

describe("STS 2017 Table 10 through the scoring engine", () => {
  const ed = edition("sts2017")
  const golds = ed.datasets.map((d, i) => goldScores(`sts2017/gold/${d.gold}`, 250, 80 + i))
  const gold = Gold.goldFromTexts(ed, ed.datasets.map((d, i) => ({ dataset: d.name, file: d.gold, content: lines(golds[i]) })))
  const files = (rs: ReadonlyArray<number | undefined>, seed: number) =>
    Object.fromEntries(ed.datasets.flatMap((d, i) => {
      const r = rs[i]
      return r === undefined ? [] : [[d.run, runWithPearson(golds[i], r / 100, seed + i)]]
    }))
  const scoring = score(ed, gold, [
    submission("ECNU/run1", "ECNU", 1, files([74.4, 74.93, 85.59, 81.31, 33.63, 85.18, 77.06], 1)),
    submission("baseline", "baseline", undefined, files([60.45, 51.55, 71.17, 62.2, 3.2, 72.78, 54.56], 20)),
    submission("NoTr6/run1", "NoTr6", 1, files([50, 70, 70, 70, 30, 84.9, undefined], 40), { corrected: true })
  ])
  let results!: Awaited<typeof scoring>
  let t!: ReturnType<typeof Presets.preset>
  beforeAll(async () => {
    results = await scoring
    t = Presets.preset("sts2017-table10", results, { matrix: false })
  })

  it("Primary = mean of the seven tracks: ECNU 73.16, baseline 53.70; a run without track 6 has none", () => {
    expect(cell(t, "ECNU/run1", "primary")).toBe("73.16")
    expect(cell(t, "baseline", "primary")).toBe("53.70")
    expect(cell(t, "NoTr6/run1", "primary")).toBe("n/a")
    expect(cell(t, "ECNU/run1", "track4b.es-en")).toBe("33.63")
    expect(t.columns.map((c) => c.header)).toEqual(["Run", "Primary", "Rank", "ar-ar", "ar-en", "es-es", "es-en", "es-en WMT", "en-en", "tr-en"])
  })
  it("the baseline team goes to its own section; marks from the engine's scores", () => {
    expect(t.sections.map((s) => s.title)).toEqual(["Participants", "Baselines"])
    const marks = (id: string, key: string) => Table.rows(t).find((r) => r.id === id)?.cells[key]?.marks
    expect(marks("ECNU/run1", "track5.en-en")).toEqual(["best", "tied"])
    expect(marks("NoTr6/run1", "track5.en-en")).toEqual(["tied"]) // 84.90 vs 85.18
    expect(marks("NoTr6/run1", "track1.ar-ar")).toEqual([]) // 50.00 vs 74.40 on 250 pairs
    expect(Table.rows(t).find((r) => r.id === "NoTr6/run1")?.marks).toEqual(["late"])
  })
})

const sickRef = path.join(sharedDir, "reference", "sick-posttask-runs.official-R.tsv")
const hasSick = hasShared && fs.existsSync(sickRef) && fs.existsSync(path.join(sharedDir, "data", "sick2014", "SICK_test_annotated.txt"))
if (!hasSick) console.warn("report: SICK post-task table test skipped: ../shared/reference or the SICK gold is absent")

describe.skipIf(!hasSick)("SICK Table 7 from the post-task runs (official R scorer figures)", () => {
  it("prints each run's r, rho and MSE as the official scorer computes them, ranked by r", async () => {
    const ed = edition("sick2014")
    const d = ed.datasets[0]
    const gold = Gold.goldFromTexts(ed, [{ dataset: d.name, file: d.gold, content: fs.readFileSync(path.join(sharedDir, "data", "sick2014", "SICK_test_annotated.txt")) }])
    const ref = fs
      .readFileSync(sickRef, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t"))
      .filter((f) => f[2] !== "NA")
    const subs = ref.map(([file]) => {
      const name = path.basename(file)
      return {
        meta: { id: file, team: name.replace(/\.txt$/, ""), run: undefined, primary: true, late: false, corrected: false, postDeadline: false },
        path: file,
        kind: "file" as const,
        files: [{ name, path: file, bytes: fs.readFileSync(path.join(sharedDir, "data", file)) }],
        issues: []
      }
    })
    const results = await score(ed, gold, subs)
    const t = Presets.preset("sick2014-table7", results, { significance: false, matrix: false })
    let matched = 0
    for (const [file, , r, rho, mse] of ref) {
      // The "-raw" files have a 4th field on data lines: the official R scorer read them anyway,
      // our engine rejects them as malformed; the table shows "x" (not scored: errors) with that reason.
      if (file.endsWith("-raw.txt")) {
        expect(cell(t, file, "pearson")).toBe("x")
        const c = Table.rows(t).find((row) => row.id === file)?.cells.pearson
        expect(c?._tag === "missing" ? c.reason : "").toMatch(/malformed/)
        continue
      }
      matched++
      expect(cell(t, file, "pearson")).toBe(Number(r).toFixed(3))
      expect(cell(t, file, "spearman")).toBe(Number(rho).toFixed(3))
      expect(cell(t, file, "mse")).toBe(Number(mse).toFixed(3))
    }
    expect(matched).toBe(ref.length - 5)
    const shown = Table.rows(t)
      .filter((row) => cell(t, row.id, "pearson") !== "-")
      .map((row) => Number(cell(t, row.id, "pearson")))
    expect(shown).toEqual([...shown].sort((a, b) => b - a))
  })
})
