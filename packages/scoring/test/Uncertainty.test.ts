/**
 * Uncertainty: the mapping from a scored result to significance's `Intervals` (the one every output
 * uses), checked against an independent stratified percentile bootstrap written here, and the
 * JSON it adds under `--ci`.
 */
import { MetricValue, Pearson } from "@stseval/metrics"
import { Intervals } from "@stseval/significance"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import type { Engine , ScoredRun} from "../src/index.js"
import { Rank, ResultJson, ResultSchema, Signature, Uncertainty } from "../src/index.js"
import { goldOf, lines, mulberry32, numeric, scoreRun, sickEdition, sickGold, submission, toyEdition } from "./helpers.js"

// ---------------------------------------------------------------------------------------------
// Fixture: a two-dataset STS edition (weighted mean, a lacking dataset counts r = 0), 40 and 30
// pairs, three primary runs of known quality and one non-primary run.

const normal = (rand: () => number) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())

const rand = mulberry32(7)
const goldA = Array.from({ length: 40 }, () => Math.round(rand() * 500) / 100)
const goldB = Array.from({ length: 30 }, () => Math.round(rand() * 500) / 100)
const noisy = (g: ReadonlyArray<number>, sd: number) => g.map((x) => Math.round((x + sd * normal(rand)) * 1000) / 1000)

const edition = toyEdition()
const gold = goldOf(edition, { a: lines(goldA), b: lines(goldB) })
const runOf = (team: string, sd: number, primary = true, datasets: ReadonlyArray<"a" | "b"> = ["a", "b"]) => {
  const files: Record<string, string> = {}
  if (datasets.includes("a")) files["STS.output.a.txt"] = lines(noisy(goldA, sd))
  if (datasets.includes("b")) files["STS.output.b.txt"] = lines(noisy(goldB, sd))
  return scoreRun(edition, gold, submission(files, { team, run: 1, primary }))
}
const resultsOf = (runs: ReadonlyArray<ScoredRun.ScoredRun>, e = edition, g = gold): Engine.Results => ({
  edition: e,
  gold: g,
  goldPath: "gold",
  issues: [],
  runs,
  ranked: Rank.rank(runs),
  signature: Signature.make(e, g)
})

const runs = [runOf("Best", 0.2), runOf("Mid", 1.2), runOf("Low", 1.6), runOf("Extra", 0.5, false), runOf("Half", 0.3, true, ["a"])]
const results = resultsOf(runs)
const settings = { level: 0.9, resamples: 2000, seed: 99 }
const computed = Uncertainty.compute(results, settings)
if (Uncertainty.isError(computed)) throw computed
const intervals = computed

// ---------------------------------------------------------------------------------------------
// An independent stratified percentile bootstrap of the official weighted mean (r = 0 for a
// lacking dataset, weight = annotated gold pairs), R's type-7 quantiles.

// the per-resample correlation is the metrics package's (checked against the official scorers
// there); what this test checks independently is the resampling, the aggregate and the quantiles
const pearson = (x: ReadonlyArray<number>, y: ReadonlyArray<number>) => MetricValue.getOrNaN(Pearson.pearson(Float64Array.from(x), Float64Array.from(y)))
const type7 = (sorted: ReadonlyArray<number>, p: number) => {
  const h = (sorted.length - 1) * p
  const lo = Math.floor(h)
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]) - sorted[lo])
}
const officialBootstrap = (run: ScoredRun.ScoredRun, B: number, level: number, seed: number) => {
  const r = mulberry32(seed)
  const parts = [
    { gold: goldA, run: run.datasets[0].aligned && numeric(run.datasets[0].aligned) },
    { gold: goldB, run: run.datasets[1].aligned && numeric(run.datasets[1].aligned) }
  ]
  const values: Array<number> = []
  for (let b = 0; b < B; b++) {
    let sum = 0
    let weight = 0
    for (const p of parts) {
      const n = p.gold.length
      if (p.run === undefined) {
        weight += n // r = 0 with the dataset's weight
        continue
      }
      const x: Array<number> = []
      const y: Array<number> = []
      for (let i = 0; i < n; i++) {
        const j = Math.floor(r() * n)
        x.push(p.run.run[j])
        y.push(p.gold[j])
      }
      sum += n * pearson(x, y)
      weight += n
    }
    values.push(sum / weight)
  }
  values.sort((a, b) => a - b)
  return { low: type7(values, (1 - level) / 2), high: type7(values, (1 + level) / 2) }
}

describe("Uncertainty.inputs: the scored result as Intervals' input", () => {
  const planned = Uncertainty.inputs(results)
  const input = planned.passes[0].input

  it("STS: the edition's datasets by Pearson with their annotated weights, its rules and reported aggregates", () => {
    // the ranked pass first, then each other metric the ranking declares (Spearman, and the
    // confidence-weighted Pearson of STS 2013-2014), not ranked
    expect(planned.passes.map((p) => [p.ranking, p.metric, p.ranked])).toEqual([
      ["official", "pearson", true],
      ["official", "spearman", false],
      ["official", "weighted-pearson", false]
    ])
    expect(input.datasets).toEqual([
      { name: "a", metric: "pearson", weight: 40 },
      { name: "b", metric: "pearson", weight: 30 }
    ])
    expect(input.official).toBe("wmean")
    expect(input.missingDataset).toBe("zero")
    expect(input.aggregates).toEqual(["wmean", "mean", "pooled"])
    expect(planned.passes[1].input.datasets.map((d) => d.metric)).toEqual(["spearman", "spearman"])
    expect(planned.passes[1].input.runs.some((r) => r.ranked)).toBe(false)
  })

  it("runs by run id, with the aligned scores; ranked exactly as the official ranking ranks them", () => {
    expect(input.runs.map((r) => [r.id, r.ranked])).toEqual([
      ["Best/run1", true],
      ["Mid/run1", true],
      ["Low/run1", true],
      ["Extra/run1", false],
      ["Half/run1", true]
    ])
    expect(Object.keys(input.runs[4].scores)).toEqual(["a"])
    expect(input.runs[0].scores.a?.gold).toBe(runs[0].datasets[0].aligned?.gold)
    const official = results.ranked.rankings[0].entries.filter((e) => e.rank !== undefined).map((e) => e.meta.id)
    expect(new Set(input.runs.filter((r) => r.ranked).map((r) => r.id))).toEqual(new Set(official))
  })

  it("`ranked` overrides who is ranked (a table that ranks every run)", () => {
    const all = Uncertainty.inputs(results, { ranked: runs.map((r) => r.meta.id) })
    expect(all.passes[0].input.runs.every((r) => r.ranked)).toBe(true)
  })
})

describe("Uncertainty.compute", () => {
  it("is one Intervals.compute call per ranking (and one per other metric) with the same settings", () => {
    const planned = Uncertainty.inputs(results)
    expect(intervals.passes.map((p) => p.result)).toEqual(planned.passes.map((p) => Intervals.compute(p.input, settings)))
    expect(intervals.signatureText).toBe(
      "method:percentile-bootstrap|resamples:2000|seed:99|level:0.9|strata:dataset|quantile:type7|official:wmean|missing:zero|rng:xoroshiro128plus|version:" +
        intervals.signature.version
    )
  })

  it("official intervals agree with an independent stratified bootstrap within Monte-Carlo error", () => {
    for (const run of [runs[0], runs[1], runs[4]]) {
      const mine = officialBootstrap(run, 4000, 0.9, 1234)
      const theirs = Uncertainty.aggregateFigure(intervals, run.meta.id, "official")?.ci
      expect(theirs).toBeDefined()
      // quantile standard error at B = 2000 and 4000 is a few % of the width; allow 15%
      const width = mine.high - mine.low
      expect(Math.abs(theirs!.low - mine.low)).toBeLessThan(0.15 * width)
      expect(Math.abs(theirs!.high - mine.high)).toBeLessThan(0.15 * width)
    }
  })

  it("every interval contains its figure, which is the scored figure", () => {
    for (const run of runs) {
      const id = run.meta.id
      for (const d of run.datasets) {
        for (const metric of ["pearson", "spearman"] as const) {
          const f = Uncertainty.datasetFigure(intervals, id, d.dataset, metric)
          if (d.aligned === undefined) {
            expect(f?.value).toBeUndefined()
            continue
          }
          expect(f?.value).toBeCloseTo(d.figures[metric]?._tag === "Defined" ? d.figures[metric].value : NaN, 12)
          expect(f!.ci!.low).toBeLessThanOrEqual(f!.value!)
          expect(f!.ci!.high).toBeGreaterThanOrEqual(f!.value!)
        }
      }
      const official = Uncertainty.aggregateFigure(intervals, id, "official")!
      expect(official.value).toBeCloseTo(run.official[0].value._tag === "Defined" ? run.official[0].value.value : NaN, 12)
      expect(official.ci!.low).toBeLessThanOrEqual(official.value!)
      expect(official.ci!.high).toBeGreaterThanOrEqual(official.value!)
    }
  })

  it("a run much better than all others has rank interval [1, 1]; runs not ranked have none", () => {
    expect(Uncertainty.rankInterval(intervals, "official", "Best/run1")).toEqual({ low: 1, high: 1 })
    expect(Uncertainty.rankInterval(intervals, "official", "Extra/run1")).toBeUndefined()
    expect(Uncertainty.bestGroup(intervals, "official")[0]).toBe("Best/run1")
    // Half lacks dataset b (r = 0 on 30 of 70 weight): clearly below Mid and Low
    const half = Uncertainty.rankInterval(intervals, "official", "Half/run1")!
    expect(half.low).toBeGreaterThan(1)
    expect(Uncertainty.formatRankInterval({ low: 2, high: 4 })).toBe("2-4")
    expect(Uncertainty.formatRankInterval({ low: 1, high: 1 })).toBe("1")
  })

  it("the same seed gives the same output; another seed other intervals", () => {
    expect(Uncertainty.compute(results, settings)).toEqual(intervals)
    const other = Uncertainty.compute(results, { ...settings, seed: 100 })
    expect(Uncertainty.isError(other)).toBe(false)
    expect(Uncertainty.aggregateFigure(other as Uncertainty.ResultIntervals, "Mid/run1", "official")?.ci).not.toEqual(
      Uncertainty.aggregateFigure(intervals, "Mid/run1", "official")?.ci
    )
  })

  it("others: false leaves the other metrics' passes out and changes nothing else", () => {
    const lean = Uncertainty.compute(results, { ...settings, others: false }) as Uncertainty.ResultIntervals
    expect(lean.passes.map((p) => p.metric)).toEqual(["pearson"])
    expect(Uncertainty.datasetFigure(lean, "Mid/run1", "a", "spearman")).toBeUndefined()
    expect(lean.passes).toEqual(intervals.passes.filter((p) => p.ranked))
  })

  it("bad settings are an InvalidInput naming the field", () => {
    const bad = Uncertainty.compute(results, { resamples: 0 })
    expect(Uncertainty.isError(bad)).toBe(true)
    expect((bad as Uncertainty.Invalid).field).toBe("resamples")
  })

  it("beyondMemory: 16 bytes a figure and resample, refused past half the machine's memory, with the most that fit (issue 22)", () => {
    // 10,000,000 resamples (the most Intervals takes) of 300 SICK runs: 300 x (2 subtasks + 2 rankings) figures
    expect(Uncertainty.figuresOf({ edition: sickEdition(), runs: new Array(300) })).toBe(1200)
    const GiB = 2 ** 30
    const beyond = Uncertainty.beyondMemory(10_000_000, 1200, 16 * GiB)
    expect(beyond).toEqual({ need: 16 * 1200 * 10_000_000, memory: 16 * GiB, most: Math.floor((8 * GiB) / (16 * 1200)) })
    expect(beyond!.most).toBe(447_392)
    // the most that fit fit; one more does not
    expect(Uncertainty.beyondMemory(447_392, 1200, 16 * GiB)).toBeUndefined()
    expect(Uncertainty.beyondMemory(447_393, 1200, 16 * GiB)).toBeDefined()
    expect(Uncertainty.describeBeyond(10_000_000, 1200, beyond!)).toBe(
      "10000000 resamples of 1200 figures (runs times their datasets and rankings) need about 179 GiB of memory, more than this machine can give (half of its 16 GiB); 447392 resamples at most"
    )
  })

  it("parseLevel reads 95 as 0.95, 0.9 as 0.9, 1 as 1%, and a percentage's decimals exactly; refuses 0, 100 and beyond", () => {
    expect(Uncertainty.parseLevel(95)).toBe(0.95)
    expect(Uncertainty.parseLevel(0.9)).toBe(0.9)
    // exactly the double of the decimal written, not the division in doubles (issue 24)
    expect(Uncertainty.parseLevel(99.9)).toBe(0.999)
    expect(Uncertainty.parseLevel(99.99)).toBe(0.9999)
    expect(Uncertainty.parseLevel(99.99)).not.toBe(99.99 / 100)
    expect(Uncertainty.parseLevel(1)).toBe(0.01)
    expect(Uncertainty.parseLevel(2.5)).toBe(0.025)
    expect(Uncertainty.parseLevel(99.999999)).toBe(0.99999999)
    for (const x of [0, 100, 150, -5, NaN, Infinity]) expect(Uncertainty.parseLevel(x)).toBeUndefined()
  })

  it("formatLevel prints a level with the decimals it has: 99.99%, not 100%", () => {
    expect([0.95, 0.9999, 0.999, 0.01, 0.025, 0.5, 1e-7].map(Uncertainty.formatLevel)).toEqual(["95%", "99.99%", "99.9%", "1%", "2.5%", "50%", "0.00001%"])
  })
})

describe("Uncertainty on SICK: one call per ranking", () => {
  const rows: Array<readonly [number, number, string]> = []
  const labels = ["ENTAILMENT", "NEUTRAL", "CONTRADICTION"]
  for (let i = 1; i <= 60; i++) rows.push([i, 1 + Math.round(rand() * 400) / 100, labels[i % 3]])
  const sick = sickEdition()
  const g = goldOf(sick, { relatedness: sickGold(rows) })
  const sickRun = (team: string, sd: number, wrong: number) =>
    scoreRun(
      sick,
      g,
      submission(
        {
          [`${team}_run1primary.txt`]: `pair_ID\tentailment_judgment\trelatedness_score\n${rows
            .map(([id, r, e], i) => `${id}\t${i < wrong ? labels[(labels.indexOf(e) + 1) % 3] : e}\t${(r + sd * normal(rand)).toFixed(3)}\n`)
            .join("")}`
        },
        { team, run: 1 }
      )
    )
  const sickResults = resultsOf([sickRun("Good", 0.1, 3), sickRun("Poor", 1.5, 30)], sick, g)
  const sickIntervals = Uncertainty.compute(sickResults, { resamples: 500 }) as Uncertainty.ResultIntervals

  it("relatedness by Pearson and entailment by accuracy, both single, both ranked", () => {
    expect(Uncertainty.isError(sickIntervals)).toBe(false)
    const planned = Uncertainty.inputs(sickResults)
    expect(planned.passes.filter((p) => p.ranked).map((p) => [p.ranking, p.input.datasets[0].metric, p.input.official])).toEqual([
      ["relatedness", "pearson", "single"],
      ["entailment", "accuracy", "single"]
    ])
    // relatedness Spearman and MSE beside Pearson, entailment macro-F1 beside accuracy: more passes, nothing ranked
    const besides = planned.passes.filter((p) => !p.ranked)
    expect(besides.map((p) => [p.ranking, p.metric])).toEqual([
      ["relatedness", "spearman"],
      ["relatedness", "mse"],
      ["relatedness", "standardised-mse"],
      ["entailment", "macro-f1"]
    ])
    expect(besides[0].input.datasets).toEqual([{ name: "relatedness", metric: "spearman", weight: 60 }])
    expect(besides.some((p) => p.input.runs.some((r) => r.ranked))).toBe(false)
    const rho = Uncertainty.datasetFigure(sickIntervals, "Good/run1", "relatedness", "spearman")!
    const scored = sickResults.runs[0].datasets[0].figures.spearman
    expect(rho.value).toBeCloseTo(scored._tag === "Defined" ? scored.value : NaN, 12)
    // figures beside the ranked one: the scored value, inside its interval
    for (const [dataset, metric] of [["relatedness", "mse"], ["relatedness", "standardised-mse"], ["entailment", "macro-f1"]] as const) {
      const f = Uncertainty.datasetFigure(sickIntervals, "Good/run1", dataset, metric)!
      const figure = sickResults.runs[0].datasets.find((d) => d.dataset === dataset)!.figures[metric]
      expect(f.value).toBeCloseTo(figure._tag === "Defined" ? figure.value : NaN, 10)
      expect(f.ci!.low).toBeLessThanOrEqual(f.value!)
      expect(f.ci!.high).toBeGreaterThanOrEqual(f.value!)
    }
    const acc = Uncertainty.datasetFigure(sickIntervals, "Good/run1", "entailment", "accuracy")!
    expect(acc.value).toBeCloseTo(100 * (57 / 60), 10)
    expect(acc.ci!.low).toBeLessThanOrEqual(acc.value!)
    expect(Uncertainty.rankInterval(sickIntervals, "relatedness", "Good/run1")).toEqual({ low: 1, high: 1 })
    expect(Uncertainty.rankInterval(sickIntervals, "entailment", "Good/run1")).toEqual({ low: 1, high: 1 })
  })

  it("JSON: relatedness.pearson and entailment.accuracy become { value, ci }", () => {
    const doc = ResultJson.resultsToJson(sickResults, sickIntervals)
    const run = doc.runs[0]
    const r = run.datasets["relatedness"].figures["pearson"] as { readonly value: number | null; readonly ci?: { readonly level: number } | null }
    expect(typeof r.value).toBe("number")
    expect(r.ci?.level).toBe(0.95)
    const rho = run.datasets["relatedness"].figures["spearman"] as { readonly ci?: { readonly low: number; readonly high: number } | null }
    // 60 pairs: the interval says it rests on fewer than 100 (issue 24)
    expect(rho.ci).toEqual({ ...Uncertainty.datasetFigure(sickIntervals, "Good/run1", "relatedness", "spearman")?.ci, fewPairs: 60 })
    expect(run.datasets["entailment"].figures["accuracy"]).toMatchObject({ ci: { level: 0.95 } })
    expect(run.official.map((o) => o.ci?.level)).toEqual([0.95, 0.95])
  })
})

describe("Json with intervals (--ci)", () => {
  const doc = ResultJson.resultsToJson(results, intervals)
  const decode = Schema.decodeUnknownSync(ResultSchema.ScoredResults)

  it("is a ScoredResults document: figures { value, ci }, aggregates with ci, the settings once", () => {
    expect(() => decode(JSON.parse(JSON.stringify(doc)))).not.toThrow()
    // datasets of 40 and 30 pairs: every interval is marked, and a note says what the mark means
    expect(doc.intervals).toEqual({
      method: "percentile-bootstrap",
      level: 0.9,
      resamples: 2000,
      seed: 99,
      signature: intervals.signatureText,
      // the note per metric: what it says of Pearson is Pearson's (under-coverage; issue 35)
      notes: [
        expect.stringMatching(/^\u2021 Pearson, an interval on fewer than 100 pairs: percentile intervals of Pearson's r hold the true value less often than their level says/),
        expect.stringMatching(/^\u2021 Spearman, an interval on fewer than 100 pairs: percentile intervals of Spearman's rho hold the true value more often than their level says/)
      ]
    })
    const best = doc.runs[0]
    expect(best.official[0].ci).toEqual({ ...Uncertainty.aggregateFigure(intervals, "Best/run1", "official")?.ci, fewPairs: 70 })
    const r = runs[0].datasets[0].figures.pearson
    expect(best.datasets["a"].figures["pearson"]).toEqual({
      value: r._tag === "Defined" ? r.value : null,
      ci: { ...Uncertainty.datasetFigure(intervals, "Best/run1", "a", "pearson")?.ci, fewPairs: 40 }
    })
    expect((best.datasets["b"].figures["pearson"] as { ci: { fewPairs?: number } }).ci.fewPairs).toBe(30)
    // the run lacking b: its official figure rests on a's 40 pairs
    expect(doc.runs[4].official[0].ci?.fewPairs).toBe(40)
    // a dataset the run did not submit: null value, no interval, and why
    const lacking = doc.runs[4].datasets["b"].figures["pearson"] as { readonly value: number | null; readonly ci?: unknown; readonly ciReason?: string }
    expect(lacking).toMatchObject({ value: null, ci: null })
    expect(lacking.ciReason).toContain("no scores")
  })

  it("ranking entries carry the figure's interval and the rank interval; the ranking its best group", () => {
    const ranking = doc.rankings!.rankings[0]
    expect(ranking.bestGroup).toEqual(Uncertainty.bestGroup(intervals, "official"))
    for (const e of ranking.entries) {
      if (e.rank === null) {
        expect(e.rankInterval).toBeUndefined()
        continue
      }
      expect(e.rankInterval).toEqual(Uncertainty.rankInterval(intervals, "official", e.id))
      expect(e.ci).toEqual({ ...Uncertainty.aggregateFigure(intervals, e.id, "official")?.ci, fewPairs: e.id === "Half/run1" ? 40 : 70 })
      expect(e.rankInterval!.low).toBeLessThanOrEqual(e.rank)
      expect(e.rankInterval!.high).toBeGreaterThanOrEqual(e.rank)
    }
  })

  it("without intervals the document is unchanged (plain numbers, no intervals key)", () => {
    const plain = ResultJson.resultsToJson(results)
    expect(plain.intervals).toBeUndefined()
    expect(typeof plain.runs[0].datasets["a"].figures["pearson"]).toBe("number")
    expect(plain.rankings!.rankings[0].entries[0].rankInterval).toBeUndefined()
  })
})

describe("a dataset with fewer than 3 pairs (issue 24: scored r = 1, yet missing in every resample)", () => {
  // 10 pairs in a, 2 in b; figures from NumPy (np.corrcoef), not from this package:
  // r(a) = 0.9238275378069194; under `zero` b enters as r = 0 with weight 2: 0.9238275378069194 * 10 / 12
  const goldA2 = [4.2, 1.0, 3.4, 0.6, 2.8, 5.0, 3.0, 1.8, 4.6, 2.2]
  const runA2 = [3.9, 1.6, 3.1, 1.2, 2.2, 4.4, 3.5, 1.1, 4.0, 2.9]
  const NUMPY_R_A = 0.9238275378069194
  const NUMPY_OFFICIAL = 0.7698562815057661
  const small = goldOf(edition, { a: lines(goldA2), b: lines([1.5, 3.5]) })
  const run = scoreRun(edition, small, submission({ "STS.output.a.txt": lines(runA2), "STS.output.b.txt": lines([1, 4]) }, { team: "Two", run: 1, primary: true }))

  it("is not scored, with a too-few-pairs error naming the run file and the gold file", () => {
    const b = run.datasets.find((d) => d.dataset === "b")!
    expect(b.status).toBe("not-scored")
    const issue = run.errors.find((i) => i.code === "too-few-pairs")
    expect(issue?.file).toContain("STS.output.b.txt")
    expect(issue?.message).toContain("dataset b has 2 annotated pairs in the gold (gold/b)")
    expect(issue?.message).toContain("needs at least 3")
    expect(b.reason).toBe(issue?.message)
  })

  it("counts as not scored in the official figure and in its interval alike: the interval holds the figure", () => {
    expect(MetricValue.getOrNaN(run.official[0].value)).toBeCloseTo(NUMPY_OFFICIAL, 12)
    expect(run.official[0].zeroed.map((z) => z.dataset)).toEqual(["b"])
    const out = Uncertainty.compute(resultsOf([run], edition, small), { level: 0.95, resamples: 1000, seed: 3 })
    if (Uncertainty.isError(out)) throw new Error(out.message)
    const official = Uncertainty.rankedFigure(out, "official", run.meta.id)!
    const a = Uncertainty.datasetFigure(out, run.meta.id, "a", "pearson")!
    expect(official.value).toBeCloseTo(NUMPY_OFFICIAL, 12)
    expect(a.value).toBeCloseTo(NUMPY_R_A, 12)
    // every resample enters b as 0 with weight 2, as the figure does: the interval is a's scaled by 10 / 12
    expect(official.ci!.low).toBeCloseTo((a.ci!.low * 10) / 12, 12)
    expect(official.ci!.high).toBeCloseTo((a.ci!.high * 10) / 12, 12)
    expect(official.ci!.low).toBeLessThan(official.value!)
    expect(official.ci!.high).toBeGreaterThan(official.value!)
  })
})
