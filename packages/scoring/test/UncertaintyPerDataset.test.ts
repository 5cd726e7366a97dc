/**
 * Intervals for an edition ranked per dataset (SemEval-2024 Task 1: per language, by Spearman):
 * each language is a ranking of its own, so each ranked run gets a rank interval in each language
 * it entered, from one resampling pass over that language alone; the figures of that language
 * (Spearman ranked, Pearson beside it) come from the same resamples, and the unofficial mean over
 * the languages from a pass of its own. Checked against direct `Intervals.compute` calls on data
 * aligned here from the scored runs, a run far better than the others ([1, 1]), a run that did not
 * enter a language (no rank there), the seed, and the JSON (`rankInterval` on each per-language
 * entry, decoded by the documented Schema).
 */
import { Intervals } from "@stseval/significance"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import type { Engine } from "../src/index.js"
import { Rank, ResultJson, ResultSchema, Signature, Uncertainty } from "../src/index.js"
import { goldOf, mulberry32, scoreRun, semrelToyEdition, submission } from "./helpers.js"

// A SemRel-shaped edition: two languages with a gold, esp without one (as in the registry).
const edition = semrelToyEdition()

const rand = mulberry32(2024)
const goldScores = (lang: string, n: number) => Array.from({ length: n }, (_, i) => [`${lang}-${i + 1}`, Math.round(rand() * 100) / 100] as const)
const golds = { eng: goldScores("eng", 60), amh: goldScores("amh", 45) }
const csv = (rows: ReadonlyArray<readonly [string, number]>) => `PairID,Text,Score\n${rows.map(([id, s]) => `${id},"one\ntwo",${s}\n`).join("")}`
const gold = goldOf(edition, { eng: csv(golds.eng), amh: csv(golds.amh) })
// a run's predictions: the gold plus uniform noise of the given width, kept within 0-1
const pred = (lang: "eng" | "amh", noise: number) =>
  `PairID,Pred_Score\n${golds[lang].map(([id, s]) => `${id},${Math.min(1, Math.max(0, Math.round((s + noise * (rand() - 0.5)) * 1000) / 1000))}\n`).join("")}`
const runOf = (team: string, noise: Partial<Record<"eng" | "amh", number>>) =>
  scoreRun(
    edition,
    gold,
    submission(Object.fromEntries(Object.entries(noise).map(([lang, n]) => [`pred_${lang}.csv`, pred(lang as "eng" | "amh", n)])), { team, id: `${team}/run1` })
  )

// EngStar is far better than every other run in eng (and poor in amh); AmhStar the reverse; Mid
// is middling in both; EngOnly entered eng only.
const runs = [
  runOf("EngStar", { eng: 0.02, amh: 1.4 }),
  runOf("AmhStar", { eng: 1.4, amh: 0.02 }),
  runOf("Mid", { eng: 0.9, amh: 0.9 }),
  runOf("EngOnly", { eng: 1.0 })
]
const results: Engine.Results = {
  edition,
  gold,
  goldPath: "gold",
  issues: [],
  runs,
  ranked: Rank.rank(runs),
  signature: Signature.make(edition, gold)
}
const settings = { level: 0.95, resamples: 400, seed: 4242 }
const compute = (options: Uncertainty.Options = settings) => {
  const out = Uncertainty.compute(results, options)
  if (Uncertainty.isError(out)) throw new Error(out.message)
  return out
}
const intervals = compute()

/** The data of one language aligned here from the scored runs, as `Intervals.compute` takes it. */
const direct = (lang: string, metric: "pearson" | "spearman", ranked: ReadonlySet<string>) => {
  const input: Intervals.Input = {
    datasets: [{ name: lang, metric }],
    official: "single",
    missingDataset: "no-official-score",
    runs: runs.map((run) => {
      const d = run.datasets.find((x) => x.dataset === lang)!
      return {
        id: run.meta.id,
        ranked: ranked.has(run.meta.id),
        scores: d.status === "scored" && d.aligned?.kind === "scores" ? { [lang]: { run: d.aligned.run, gold: d.aligned.gold } } : {}
      }
    })
  }
  const out = Intervals.compute(input, settings)
  if (!("runs" in out)) throw new Error(out.message)
  return out
}

describe("an edition ranked per dataset: a rank interval in each language", () => {
  it("one ranking per language with a gold (esp has none), each the ranked runs of that language of Rank.rank", () => {
    expect(results.ranked.rankings.map((r) => r.ranking)).toEqual(["eng", "amh"])
    expect(intervals.passes.filter((p) => p.ranked).map((p) => p.ranking)).toEqual(["eng", "amh"])
    const planned = Uncertainty.inputs(results)
    // per language: the ranked Spearman pass, then Pearson beside it
    expect(planned.passes.map((p) => [p.ranking, p.metric, p.ranked])).toEqual([
      ["eng", "spearman", true],
      ["eng", "pearson", false],
      ["amh", "spearman", true],
      ["amh", "pearson", false]
    ])
    for (const { ranking, input } of planned.passes.filter((p) => p.ranked)) {
      expect(input.datasets).toEqual([{ name: ranking, metric: "spearman", weight: golds[ranking as "eng" | "amh"].length }])
      expect(input.official).toBe("single")
      const rankedHere = results.ranked.rankings.find((r) => r.ranking === ranking)!.entries.filter((e) => e.rank !== undefined).map((e) => e.meta.id)
      expect(input.runs.filter((r) => r.ranked).map((r) => r.id)).toEqual(runs.map((r) => r.meta.id).filter((id) => rankedHere.includes(id)))
      const beside = planned.passes.find((p) => p.ranking === ranking && !p.ranked)!.input
      expect(beside.datasets.map((d) => [d.name, d.metric])).toEqual([[ranking, "pearson"]])
      expect(beside.runs.some((r) => r.ranked)).toBe(false)
    }
    expect(planned.unofficial?.rule).toBe("mean")
    expect(planned.unofficial?.input.datasets.map((d) => [d.name, d.metric])).toEqual([["eng", "spearman"], ["amh", "spearman"]])
  })

  it("a run far better than every other in a language has rank interval [1, 1] there, and is the best group alone", () => {
    expect(Uncertainty.rankInterval(intervals, "eng", "EngStar/run1")).toEqual({ low: 1, high: 1 })
    expect(Uncertainty.rankInterval(intervals, "amh", "AmhStar/run1")).toEqual({ low: 1, high: 1 })
    expect(Uncertainty.bestGroup(intervals, "eng")).toEqual(["EngStar/run1"])
    expect(Uncertainty.bestGroup(intervals, "amh")).toEqual(["AmhStar/run1"])
  })

  it("a run that did not enter a language gets no rank there (nor a figure), and its rank in the other", () => {
    expect(Uncertainty.rankInterval(intervals, "amh", "EngOnly/run1")).toBeUndefined()
    expect(Uncertainty.rankedFigure(intervals, "amh", "EngOnly/run1")).toMatchObject({ value: undefined, ci: undefined })
    expect(Uncertainty.rankInterval(intervals, "eng", "EngOnly/run1")).toBeDefined()
  })

  it("each language's figures and ranks are a direct Intervals.compute over that language alone (same settings)", () => {
    for (const lang of ["eng", "amh"]) {
      const ranking = intervals.passes.find((p) => p.ranking === lang && p.ranked)!
      const beside = intervals.passes.find((p) => p.ranking === lang && !p.ranked)!
      const rankedHere = new Set(
        results.ranked.rankings.find((r) => r.ranking === lang)!.entries.filter((e) => e.rank !== undefined).map((e) => e.meta.id)
      )
      const spearman = direct(lang, "spearman", rankedHere)
      expect(ranking.result.runs).toEqual(spearman.runs)
      expect(ranking.result.bestGroup).toEqual(spearman.bestGroup)
      expect(ranking.result.signatureText).toBe(spearman.signatureText)
      // the runs with a rank interval are exactly those Rank.rank ranks in the language
      expect(new Set(spearman.runs.filter((r) => r.rankInterval !== undefined).map((r) => r.id))).toEqual(rankedHere)
      // Pearson beside Spearman: the same one dataset, the same seed, so the same resamples
      const pearson = direct(lang, "pearson", new Set())
      expect(beside.result.runs).toEqual(pearson.runs)
      for (const run of runs) {
        const id = run.meta.id
        const rho = spearman.runs.find((r) => r.id === id)!
        // one figure, one interval: the ranked figure is the dataset's Spearman
        expect(Uncertainty.rankedFigure(intervals, lang, id)).toEqual(rho.official)
        expect(Uncertainty.datasetFigure(intervals, id, lang, "spearman")).toEqual(rho.datasets[0])
        expect(Uncertainty.datasetFigure(intervals, id, lang, "pearson")).toEqual(pearson.runs.find((r) => r.id === id)!.datasets[0])
        const d = run.datasets.find((x) => x.dataset === lang)!
        const dRho = d.figures.spearman
        if (dRho._tag === "Defined") {
          expect(rho.official.value).toBeCloseTo(dRho.value, 12)
          expect(rho.official.ci!.low).toBeLessThanOrEqual(dRho.value)
          expect(rho.official.ci!.high).toBeGreaterThanOrEqual(dRho.value)
        }
      }
    }
  })

  it("the unofficial mean over the languages: its interval from one pass over both (the rule as ScoredRun reports it)", () => {
    const out = Intervals.compute(
      {
        datasets: [
          { name: "eng", metric: "spearman", weight: 60 },
          { name: "amh", metric: "spearman", weight: 45 }
        ],
        official: "mean",
        missingDataset: "no-official-score",
        runs: runs.map((run) => ({
          id: run.meta.id,
          ranked: false,
          scores: Object.fromEntries(run.datasets.flatMap((d) => (d.aligned?.kind === "scores" ? [[d.dataset, { run: d.aligned.run, gold: d.aligned.gold }]] : [])))
        }))
      },
      settings
    )
    if (!("runs" in out)) throw new Error(out.message)
    for (const run of runs) {
      const f = Uncertainty.aggregateFigure(intervals, run.meta.id, "mean")
      expect(f).toEqual(out.runs.find((r) => r.id === run.meta.id)!.official)
      const mean = run.aggregates["official"].mean!.value
      if (mean._tag === "Defined") expect(f!.value).toBeCloseTo(mean.value, 12)
      else expect(f!.value).toBeUndefined() // EngOnly: no mean, as ScoredRun says
    }
    expect(Uncertainty.aggregateFigure(intervals, "EngOnly/run1", "mean")!.ci).toBeUndefined()
    expect(Uncertainty.aggregateFigure(intervals, "Mid/run1", "official")).toBeUndefined()
  })

  it("the same seed gives the same output; another seed other resamples", () => {
    const again = compute()
    expect(again).toEqual(intervals)
    const json = (iv: Uncertainty.ResultIntervals) => JSON.stringify(ResultJson.resultsToJson(results, iv))
    expect(json(again)).toBe(json(intervals))
    const other = compute({ ...settings, seed: settings.seed + 1 })
    expect(other.passes[0].result.runs[2].official.ci).not.toEqual(intervals.passes[0].result.runs[2].official.ci)
  })

  it("`others: false` (an output showing only the ranked figure) keeps the ranked Spearman passes, as they were", () => {
    const lean = compute({ ...settings, others: false })
    expect(lean.passes).toEqual(intervals.passes.filter((p) => p.ranked))
  })

  it("JSON: rankInterval and overlapsBest on each ranked entry of each per-language ranking, bestGroup on each ranking; the Schema decodes it", () => {
    const doc = ResultJson.resultsToJson(results, intervals)
    expect(() => Schema.decodeUnknownSync(ResultSchema.ScoredResults)(JSON.parse(JSON.stringify(doc)))).not.toThrow()
    const rankings = doc.rankings!.rankings
    expect(rankings.map((r) => r.ranking)).toEqual(["eng", "amh"])
    for (const r of rankings) {
      expect(r.bestGroup).toEqual([...Uncertainty.bestGroup(intervals, r.ranking)])
      for (const e of r.entries) {
        const ri = Uncertainty.rankInterval(intervals, r.ranking, e.id)
        if (e.rank === null) {
          expect(e.rankInterval).toBeUndefined()
          continue
        }
        expect(e.rankInterval).toEqual({ low: ri!.low, high: ri!.high })
        expect(e.rankInterval!.low).toBeLessThanOrEqual(e.rank)
        expect(e.rankInterval!.high).toBeGreaterThanOrEqual(e.rank)
        expect(e.overlapsBest).toBe(r.bestGroup!.includes(e.id))
        expect(e.ci).toEqual(ResultJson.ciOf(Uncertainty.rankedFigure(intervals, r.ranking, e.id)).ci)
      }
    }
    const amh = rankings.find((r) => r.ranking === "amh")!.entries.find((e) => e.id === "EngOnly/run1")!
    expect(amh).toMatchObject({ rank: null })
    expect(amh.rankInterval).toBeUndefined()
    // a run's official figure in a language and its dataset Spearman: the same interval
    const star = doc.runs.find((r) => r.run.id === "EngStar/run1")!
    const official = star.official.find((o) => o.ranking === "eng")!
    expect(official.ci).toEqual((star.datasets["eng"].figures["spearman"] as { ci: unknown }).ci)
    expect(star.aggregates["official"].mean!.ci).not.toBeNull()
  })
})
