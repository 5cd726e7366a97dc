/**
 * The board's page and the report read the same scored runs through the tables' one converter
 * (`FromScoring.convert`): given the same runs, rankings, intervals and marks, they agree on every
 * figure, interval, rank, rank interval and mark they both show, and differ exactly where a named
 * rule (`FromScoring.boardRules` against `reportRules`) says so: a failed run's datasets, a dataset
 * without gold, why a figure is missing, and the board holding each dataset's ranked metric only.
 * STS 2014 (an official figure over six datasets) and SemRel 2024 track A (a ranking per language,
 * esp without gold), on synthetic runs: a good one, a noisy one lacking a dataset, one with a file
 * that does not parse, one whose every file fails.
 */
import { Gold, Registry } from "@stseval/formats"
import type { Submissions } from "@stseval/formats"
import { Engine, Rank, Uncertainty } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import { FromScoring, Results } from "@stseval/tables"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import * as BoardPage from "../src/BoardPage.js"
import * as Leaderboard from "../src/Leaderboard.js"
import * as ScoringAdapter from "../src/ScoringAdapter.js"

const enc = new TextEncoder()
let state = 33
const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32

/** An edition's gold (`n` pairs a dataset, scores 0-5) and the text of a run's file for a dataset. */
interface Task {
  readonly edition: Registry.TaskEdition
  readonly gold: Gold.Gold
  /** the run file of a dataset: its gold plus noise of `sd`; `bad` a file whose every line fails */
  readonly file: (dataset: string, sd: number | "bad") => { readonly name: string; readonly text: string }
}

const sts2014 = (): Task => {
  const edition = Registry.get("sts2014")!
  const golds = new Map(edition.datasets.map((d) => [d.name, Array.from({ length: 60 }, () => Math.round(rand() * 50) / 10)]))
  const gold = Gold.goldFromTexts(edition, edition.datasets.map((d) => ({ dataset: d.name, file: d.gold, content: golds.get(d.name)!.join("\n") + "\n" })))
  return {
    edition,
    gold,
    file: (dataset, sd) => ({
      name: edition.datasets.find((d) => d.name === dataset)!.run,
      text: golds.get(dataset)!.map((g) => (sd === "bad" ? "not a number" : String(g + sd * (rand() - 0.5)))).join("\n") + "\n"
    })
  }
}

const semrel = (): Task => {
  const edition = Registry.get("semrel2024-a")!
  const golds = new Map(["eng", "amh"].map((l) => [l, Array.from({ length: 40 }, (_, i) => ({ id: `${l}-${i + 1}`, score: Math.round(rand() * 100) / 100 }))]))
  const gold = Gold.goldFromTexts(
    edition,
    [...golds].map(([l, rows]) => ({ dataset: l, file: `${l}_test_with_labels.csv`, content: `PairID,Text,Score\n${rows.map((r) => `${r.id},"a\nb",${r.score}\n`).join("")}` }))
  )
  return {
    edition,
    gold,
    file: (l, sd) => ({
      name: `pred_${l}.csv`,
      text: `PairID,Pred_Score\n${golds.get(l)!.map((r) => `${r.id},${sd === "bad" ? "x" : r.score + sd * (rand() - 0.5)}\n`).join("")}`
    })
  }
}

const submission = (task: Task, team: string, files: Record<string, number | "bad">): Submissions.Submission => ({
  meta: { id: `${team}/run1`, team, run: 1, primary: true, late: false, corrected: false, postDeadline: false },
  path: `subs/${team}`,
  kind: "folder",
  files: Object.entries(files).map(([d, sd]) => {
    const f = task.file(d, sd)
    return { name: f.name, path: `subs/${team}/${f.name}`, bytes: enc.encode(f.text) }
  }),
  issues: []
})

/** The same runs, ranked, with the same intervals and marks, as the report reads them and as the board's page reads them. */
const bothReadings = async (task: Task, runs: Record<string, Record<string, number | "bad">>) => {
  const scored = await Effect.runPromise(Effect.forEach(Object.entries(runs), ([team, files]) => Engine.scoreSubmission({ edition: task.edition, gold: task.gold, goldPath: undefined }, submission(task, team, files))))
  const results = { edition: task.edition, runs: scored, ranked: Rank.rank(scored, { primaryOnly: false }) }
  const options = { level: 0.95, resamples: 200, seed: 7 }
  const marks = Marks.compute(results)
  const iv = Uncertainty.compute(results, options)
  if (Uncertainty.isError(iv)) throw new Error(iv.message)
  const records = scored.map(
    (s): Leaderboard.RunRecord => ({ entry: s.meta.team, kind: "folder", team: s.meta.team, run: 1, primary: true, late: false, corrected: false, hash: s.meta.id, submittedAt: 0, outcome: ScoringAdapter.toOutcome(s), scored: s })
  )
  const ranked = Leaderboard.rankRuns(records, { task: task.edition.id, runLimit: 10 })
  const biv = Leaderboard.intervals(ranked, task.edition, options)
  if (biv === undefined || Uncertainty.isError(biv)) throw new Error("no board intervals")
  const board = Leaderboard.withMarks(Leaderboard.withIntervals(ranked.board, biv), marks)
  return { scored, report: FromScoring.fromResults(results, { intervals: iv, marks }), board: BoardPage.toResults(board, task.edition) }
}

type Readings = Awaited<ReturnType<typeof bothReadings>>

/** Every figure, interval, rank, rank interval and mark the board shows is the report's. */
const expectAgreement = ({ report, board }: Readings) => {
  expect(board.runs.map((r) => r.id).sort()).toEqual(report.runs.map((r) => r.id).sort())
  expect(board.rankings.length).toBeGreaterThan(0)
  for (const k of board.rankings) {
    const r = report.rankings.find((x) => x.ranking === k.ranking)!
    expect(k.entries).toEqual(r.entries)
    expect(k.direction).toBe(r.direction)
  }
  let compared = 0
  for (const b of board.runs) {
    const r = report.runs.find((x) => x.id === b.id)!
    expect([b.late, b.corrected, b.postDeadline, b.zeroed === true, b.failed === true]).toEqual([r.late, r.corrected, r.postDeadline, r.zeroed === true, r.failed === true])
    for (const [name, f] of Object.entries(b.datasets)) {
      const metric = task(board).metricOf(name)
      expect(Results.figureOf(f, metric), `${b.id} ${name}`).toBe(Results.figureOf(r.datasets[name], metric))
      expect(f.ci?.[metric]).toEqual(r.datasets[name]?.ci?.[metric])
      if (Results.figureOf(f, metric) !== undefined) compared++
    }
    for (const [name, v] of Object.entries(b.aggregates)) {
      expect(v, `${b.id} ${name}`).toBe(r.aggregates[name])
      expect(b.aggregateIntervals?.[name]).toEqual(r.aggregateIntervals?.[name])
    }
    for (const [key, ri] of Object.entries(b.rankIntervals ?? {})) expect(ri, `${b.id} ${key}`).toEqual(r.rankIntervals?.[key])
  }
  expect(compared).toBeGreaterThan(3)
  for (const [key, m] of Object.entries(board.marks ?? {})) expect(m, key).toEqual(Marks.toJson(report.marks![key]))
}

/** The ranked metric of a dataset of the board's results (its column's). */
const task = (board: Results.Results) => ({
  metricOf: (name: string) => board.datasets.find((d) => d.name === name)?.metric ?? board.rankings.find((k) => k.ranking === name)!.metric
})

describe("the board's page and the report read a scored run through one converter", () => {
  describe("STS 2014: an official figure over six datasets", () => {
    const t = sts2014()
    let readings: Readings
    beforeAll(async () => {
      readings = await bothReadings(t, {
        Good: Object.fromEntries(t.edition.datasets.map((d) => [d.name, 0.5])),
        Noisy: Object.fromEntries(t.edition.datasets.filter((d) => d.name !== "OnWN").map((d) => [d.name, 2])),
        Broken: { headlines: "bad", images: 1 },
        Failed: { headlines: "bad" }
      })
    })

    it("agree on every figure, interval, rank, rank interval and mark the board shows", () => {
      expectAgreement(readings)
      const good = readings.board.runs.find((r) => r.id === "Good/run1")!
      const official = readings.scored[0].official.find((o) => o.ranking === "official")!.value
      expect(official._tag === "Defined" ? official.value : undefined).toBe(good.aggregates.official)
      expect(good.aggregateIntervals?.official).toBeDefined()
      expect(good.rankIntervals?.["aggregate:official"]).toBeDefined()
    })

    it("failedRun: the board marks every dataset of a failed run failed, the report keeps each dataset's status", () => {
      expect(readings.scored.find((s) => s.meta.team === "Failed")!.status).toBe("failed")
      const board = readings.board.runs.find((r) => r.id === "Failed/run1")!
      const report = readings.report.runs.find((r) => r.id === "Failed/run1")!
      expect(Object.values(board.datasets).map((d) => d.state)).toEqual(t.edition.datasets.map(() => "failed"))
      expect(t.edition.datasets.map((d) => report.datasets[d.name].state)).toEqual(t.edition.datasets.map((d) => (d.name === "headlines" ? "failed" : "notSubmitted")))
      // a scored run's datasets: the same status on both
      for (const id of ["Good/run1", "Noisy/run1", "Broken/run1"]) {
        const b = readings.board.runs.find((r) => r.id === id)!
        const r = readings.report.runs.find((x) => x.id === id)!
        for (const d of t.edition.datasets) expect(b.datasets[d.name].state, `${id} ${d.name}`).toBe(r.datasets[d.name].state)
      }
      expect(readings.report.runs.find((r) => r.id === "Broken/run1")!.datasets.headlines.state).toBe("failed")
      expect(readings.report.runs.find((r) => r.id === "Noisy/run1")!.datasets.OnWN.state).toBe("notSubmitted")
    })

    it("reasons: the board says the run's failure, the report the dataset's own reason; the board holds the ranked metric only", () => {
      const failed = readings.scored.find((s) => s.meta.team === "Failed")!
      const board = readings.board.runs.find((r) => r.id === "Failed/run1")!
      const report = readings.report.runs.find((r) => r.id === "Failed/run1")!
      expect(Object.values(board.datasets).map((d) => d.reason)).toEqual(t.edition.datasets.map(() => failed.failure))
      expect(report.datasets.OnWN.reason).toBe("OnWN not submitted")
      expect(report.datasets.headlines.reason).toBe(failed.datasets.find((d) => d.dataset === "headlines")!.reason)
      // the official figure: the report says why it is undefined, the board why the run failed
      const official = failed.official.find((o) => o.ranking === "official")!.value
      expect(report.aggregateReasons?.official).toBe(official._tag === "Undefined" ? official.reason : "defined")
      expect(board.aggregateReasons?.official).toBe(failed.failure)
      expect(report.aggregateReasons?.official).not.toBe(failed.failure)
      const noisy = readings.board.runs.find((r) => r.id === "Noisy/run1")!
      expect(noisy.datasets.OnWN.reason).toBeUndefined()
      expect(readings.report.runs.find((r) => r.id === "Noisy/run1")!.datasets.OnWN.reason).toBe("OnWN not submitted")
      const good = readings.board.runs.find((r) => r.id === "Good/run1")!
      const metrics = (f: Results.DatasetFigures) => Object.keys(f).filter((k) => k !== "pairs" && Results.figureOf(f, k) !== undefined)
      expect(metrics(good.datasets.images)).toEqual(["pearson"])
      const figures = readings.report.runs.find((r) => r.id === "Good/run1")!.datasets.images
      expect(metrics(figures)).toEqual(["pearson", "spearman"])
    })
  })

  describe("SemRel 2024 track A: a ranking per language, esp without gold", () => {
    const t = semrel()
    let readings: Readings
    beforeAll(async () => {
      readings = await bothReadings(t, { Alpha: { eng: 0.2, amh: 0.5 }, Beta: { eng: 0.6, amh: 0.1 }, Gamma: { eng: 0.1, amh: "bad" }, Delta: { eng: 0.4 } })
    })

    it("agree on every language's Spearman, interval, rank, rank interval and mark", () => {
      expectAgreement(readings)
      const alpha = readings.board.runs.find((r) => r.id === "Alpha/run1")!
      expect(alpha.datasets.eng.spearman).toBeTypeOf("number")
      expect(alpha.datasets.eng.ci?.spearman).toBeDefined()
      expect(alpha.rankIntervals?.["eng:spearman"]).toBeDefined()
    })

    it("noGold: the board lists esp without a figure (noFigure), the report leaves it out", () => {
      for (const id of ["Alpha/run1", "Delta/run1"]) {
        expect(readings.board.runs.find((r) => r.id === id)!.datasets.esp?.state).toBe("noFigure")
        expect(readings.report.runs.find((r) => r.id === id)!.datasets.esp).toBeUndefined()
      }
      expect(readings.report.runs.find((r) => r.id === "Gamma/run1")!.datasets.amh.state).toBe("failed")
      expect(readings.board.runs.find((r) => r.id === "Gamma/run1")!.datasets.amh.state).toBe("failed")
    })
  })
})

describe("FromScoring.convert: each rule changes only what it names", () => {
  const run: FromScoring.RunJson = {
    run: { id: "T/run1", team: "T", run: 1, primary: true, late: false, corrected: false, postDeadline: false },
    status: "failed",
    failure: "no dataset could be scored",
    datasets: {
      a: { status: "missing", reason: "the run has no file for dataset a", figures: { pearson: null, spearman: null } },
      b: { status: "not-scored", reason: "line 2: not a number", figures: { pearson: null } },
      c: { status: "no-gold", reason: "no labels released", figures: {} }
    },
    official: [{ ranking: "a", value: null, undefined: { value: "a: the run has no file for dataset a" } }]
  }
  const rankings: ReadonlyArray<FromScoring.RankingJson> = [{ ranking: "a", metric: "pearson", figures: ["a:pearson"], entries: [{ id: "T/run1", rank: null, reason: "failed" }] }]
  const read = (rules: FromScoring.Rules) => FromScoring.convert({ runs: [run], rankings, metrics: new Map([["a", "pearson"], ["b", "pearson"], ["c", "pearson"]]) }, rules).runs[0]
  const report = read(FromScoring.reportRules)

  it("the report's reading: each dataset's own status and reason, no gold left out", () => {
    expect(report.datasets).toEqual({
      a: { pearson: undefined, spearman: undefined, state: "notSubmitted", reason: "a not submitted" },
      b: { pearson: undefined, state: "failed", reason: "line 2: not a number" }
    })
    expect(report.aggregateReasons).toEqual({ a: "a: the run has no file for dataset a", official: "no dataset could be scored" })
  })

  it("failedRun, noGold, reasons: one field each", () => {
    expect(read({ ...FromScoring.reportRules, failedRun: "every-dataset-failed" }).datasets).toEqual({ ...report.datasets, a: { ...report.datasets.a, state: "failed" } })
    expect(read({ ...FromScoring.reportRules, noGold: "no-figure" }).datasets).toEqual({ ...report.datasets, c: { state: "noFigure", reason: "no labels released" } })
    const byRun = read({ ...FromScoring.reportRules, reasons: "run-then-ranking" })
    expect(byRun.datasets).toEqual({ a: { ...report.datasets.a, reason: "no dataset could be scored" }, b: { ...report.datasets.b, reason: "no dataset could be scored" } })
    expect(byRun.aggregateReasons).toEqual({ a: "no dataset could be scored" })
  })

  it("rankedDataset: a ranking's own dataset shows the ranking's official figure and reason", () => {
    const board = read({ ...FromScoring.reportRules, reasons: "run-then-ranking", rankedDataset: "official-figure" })
    const own = read({ ...FromScoring.reportRules, reasons: "run-then-ranking" })
    expect(own.datasets.a.reason).toBe("no dataset could be scored")
    const scored = FromScoring.convert(
      {
        runs: [{ ...run, status: "scored", failure: undefined, datasets: { a: { status: "scored", figures: { pearson: 0.5 } } }, official: [{ ranking: "a", value: 0.5, ci: { low: 0.4, high: 0.6, level: 0.95 } }] }],
        rankings,
        metrics: new Map([["a", "pearson"]])
      },
      FromScoring.boardRules
    ).runs[0]
    expect(board.datasets.a.reason).toBe("no dataset could be scored")
    expect(scored.datasets.a).toEqual({ pearson: 0.5, reason: "failed", ci: { pearson: { low: 0.4, high: 0.6 } } })
  })
})
