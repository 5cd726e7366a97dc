/**
 * Leaderboard columns (keys, order, style) for every built-in edition, and `scores.json` from
 * figures: numbers scaled for the published style, nothing non-finite or too large.
 */
import { Registry } from "@stseval/formats"
import { describe, expect, it } from "vitest"
import { stsEdition } from "@stseval/vitest-config/edition"
import { Scores } from "../src/index.js"

const keys = (id: string) => Scores.columns(Registry.get(id)!).map((c) => c.key)

describe("columns", () => {
  it("SICK: each ranking's reported metrics, relatedness first; MSE ascending; official r and accuracy (percent, 2 decimals as every stseval output)", () => {
    const cols = Scores.columns(Registry.get("sick2014")!)
    expect(cols.map((c) => [c.key, c.sorting, c.precision, c.scale, c.official])).toEqual([
      ["relatedness_pearson", "desc", 3, 1, true],
      ["relatedness_spearman", "desc", 3, 1, false],
      ["relatedness_mse", "asc", 3, 1, false],
      ["entailment_accuracy", "desc", 2, 1, true]
    ])
    expect(Scores.primaryIndex(cols)).toBe(0)
  })

  it("STS 2014 (r3): the datasets, then the official weighted mean, r to 3 decimals", () => {
    const cols = Scores.columns(Registry.get("sts2014")!)
    expect(cols.map((c) => c.key)).toEqual(["deft_forum", "deft_news", "headlines", "images", "onwn", "tweet_news", "official"])
    expect(cols.every((c) => c.scale === 1 && c.precision === 3)).toBe(true)
    expect(cols[Scores.primaryIndex(cols)].key).toBe("official")
    expect(cols.at(-1)!.title).toBe("Official: Weighted mean")
  })

  it("STS 2017 (r100): the primary mean first (Table 10), then the tracks, r x 100 to 2 decimals", () => {
    const cols = Scores.columns(Registry.get("sts2017")!)
    expect(cols.map((c) => c.key)).toEqual(["official", "track1_ar_ar", "track2_ar_en", "track3_es_es", "track4a_es_en", "track4b_es_en", "track5_en_en", "track6_tr_en"])
    expect(cols.every((c) => c.scale === 100 && c.precision === 2)).toBe(true)
    expect(Scores.primaryIndex(cols)).toBe(0)
  })

  it("SemRel 2024 (ranked per language by Spearman): each language's Spearman (official) and Pearson, then the unofficial mean; no column for esp, whose gold was never released", () => {
    const edition = Registry.get("semrel2024-a")!
    const cols = Scores.columns(edition)
    const languages = edition.datasets.filter((d) => d.goldNotPublic === undefined).map((d) => d.name)
    expect(languages).not.toContain("esp")
    expect(cols.some((c) => c.key.startsWith("esp"))).toBe(false)
    expect(cols.map((c) => c.key)).toEqual([...languages.flatMap((l) => [l, `${l}_pearson`]), "mean"])
    expect(cols.filter((c) => c.official).map((c) => c.key)).toEqual(languages)
    expect(cols.filter((c) => c.official).every((c) => c.figure._tag === "dataset" && c.figure.metric === "spearman")).toBe(true)
    expect(cols.at(-1)!.title).toBe("Mean (unofficial)")
    expect(cols.at(-1)!.figure).toEqual({ _tag: "aggregate", ranking: "official", name: "mean" })
    expect(cols.every((c) => c.scale === 1 && c.precision === 3)).toBe(true)
    expect(Scores.primaryIndex(cols)).toBe(0)
  })

  it("STS 2012: ALLnrm and the weighted mean beside the official pooled figure", () => {
    expect(keys("sts2012")).toEqual(["msrpar", "msrvid", "smteuroparl", "surprise_onwn", "surprise_smtnews", "official", "allnrm", "wmean"])
  })

  it("STS Benchmark: the metrics of its one dataset, keyed by metric", () => {
    expect(keys("stsb")).toEqual(["pearson", "spearman"])
    expect(keys("stsb-dev")).toEqual(["pearson", "spearman"])
  })

  it("every built-in edition: unique keys of at most 36 characters of [a-z0-9_], titles of at most 36", () => {
    for (const e of Registry.builtin) {
      const cols = Scores.columns(e)
      expect(new Set(cols.map((c) => c.key)).size).toBe(cols.length)
      for (const c of cols) {
        expect(c.key).toMatch(/^[a-z0-9_]{1,36}$/)
        expect(c.title.length).toBeLessThanOrEqual(36)
      }
      // one official column per ranking, or per dataset for an edition ranked per dataset
      const perDataset = e.ranking.some((r) => Registry.isRankedPerDataset(r))
      expect(cols.filter((c) => c.official).length).toBe(perDataset ? e.datasets.filter((d) => d.goldNotPublic === undefined).length : e.ranking.length)
    }
  })

  it("a dataset whose name slugs to an aggregate's key, or to a long key, keeps the keys unique and short", () => {
    const edition = Registry.decodeEditionSync(
      stsEdition("clash", "clash", ["Official", "a-very-long-dataset-name-that-goes-on-and-on-and-on", "a very long dataset name that goes on and on and on!"])
    )
    const cols = Scores.columns(edition)
    expect(cols.map((c) => c.key)).toEqual(["official_2", "a_very_long_dataset_name_that_goes_o", "a_very_long_dataset_name_that_goes_2", "official"])
    expect(cols.find((c) => c.key === "official")!.figure).toEqual({ _tag: "official", ranking: "official" })
  })
})

describe("boards: what the leaderboard ranks", () => {
  it("an edition ranked per language: one board per language with a public gold, and the mean; by default one competition each, never one language as the primary column of a board of all", () => {
    const edition = Registry.get("semrel2024-a")!
    const { boards, each, default: fallback } = Scores.boards(edition)
    const languages = edition.datasets.filter((d) => d.goldNotPublic === undefined).map((d) => d.name)
    expect(fallback).toBe(Scores.EACH)
    expect(each.map((b) => b.name)).toEqual(languages)
    expect(boards.map((b) => b.name)).toEqual([...languages, "mean"])
    for (const b of each) {
      // a language's board shows that language only, ordered by its Spearman
      expect(b.columns.map((c) => c.key)).toEqual([b.name, `${b.name}_pearson`])
      expect(b.columns[b.primary].figure).toEqual({ _tag: "dataset", dataset: b.name, metric: "spearman" })
    }
    const mean = boards.find((b) => b.name === "mean")!
    expect(mean.columns[mean.primary].figure).toEqual({ _tag: "aggregate", ranking: "official", name: "mean" })
    expect(mean.primary).toBe(0)
    // no default single board: the organiser names one, or gets one competition per language
    const none = Scores.board(edition)
    expect("problem" in none && none.problem).toContain('"each" is several leaderboards')
    expect("problem" in Scores.board(edition, "esp")).toBe(true)
  })

  it("one official figure (STS, STS-B): the official board is the default; SICK adds a board ordered by entailment accuracy", () => {
    const sts = Scores.board(Registry.get("sts2017")!)
    expect("problem" in sts ? sts.problem : [sts.name, sts.columns[sts.primary].key]).toEqual(["official", "official"])
    const sick = Scores.boards(Registry.get("sick2014")!)
    expect(sick.default).toBe("official")
    expect(sick.boards.map((b) => [b.name, b.columns[b.primary].key, b.columns.length])).toEqual([
      // and the count of figures before the first column a complete run has and a partial one may not
      ["official", "relatedness_pearson", 5],
      ["entailment", "entailment_accuracy", 5]
    ])
    const unknown = Scores.board(Registry.get("sts2017")!, "track5.en-en")
    expect("problem" in unknown && unknown.problem).toBe('sts2017 has no leaderboard "track5.en-en"; choose one of official, each')
  })
})

describe("fromRun", () => {
  it("scales by the published style and leaves out what has no value, is not finite or is too large", () => {
    const cols = Scores.columns(Registry.get("sts2017")!)
    const values: Record<string, Scores.Figure> = {
      official: { _tag: "none", reason: "no official score: track6 is missing" },
      "track1.ar-ar": { _tag: "value", value: 0.5 },
      "track2.ar-en": { _tag: "value", value: Number.NaN },
      "track3.es-es": { _tag: "value", value: Number.POSITIVE_INFINITY },
      "track4a.es-en": { _tag: "value", value: 2e8 },
      "track4b.es-en": { _tag: "value", value: -0.25 },
      "track5.en-en": { _tag: "value", value: 1 },
      "track6.tr-en": { _tag: "none", reason: "the run has no file for it" }
    }
    const result = Scores.fromRun(cols, (ref) => values[ref._tag === "official" ? "official" : ref._tag === "dataset" ? ref.dataset : ""])
    expect(result.scores).toEqual({ track1_ar_ar: 50, track4b_es_en: -25, track5_en_en: 100 })
    expect(JSON.stringify(result.scores)).not.toMatch(/NaN|Infinity|null/)
    expect(result.omitted.map((o) => [o.key, o.reason.slice(0, 20)])).toEqual([
      ["official", "no official score: t"],
      ["track2_ar_en", "the figure is not a "],
      ["track3_es_es", "the figure is not a "],
      ["track4a_es_en", "the figure 200000000"],
      ["track6_tr_en", "the run has no file "]
    ])
  })
})
