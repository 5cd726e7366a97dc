import { describe, expect, it } from "vitest"
import { Pearson, Spearman } from "@stseval/metrics"
import { Registry } from "@stseval/formats"
import type { ScoredRun } from "@stseval/scoring";
import { ResultJson } from "@stseval/scoring"
import { expectClose, goldOf, lines, scoreDataset, scoreRun, submission, toyEdition, validateRun } from "./helpers.js"

// Dataset a (hand-worked): gold lines 1, <blank>, 3, 4, 2 (line 2 not annotated);
// run 1, 9, 2, 4, 3. Scored pairs (run, gold): (1,1) (2,3) (4,4) (3,2):
//   x = [1, 2, 4, 3], y = [1, 3, 4, 2]; mx = my = 2.5; sxy = 2.25 - 0.25 + 2.25 - 0.25 = 4;
//   sxx = syy = 5 -> r = 0.8; the ranks are the values themselves -> rho = 0.8.
// Dataset b: gold 1, 2, 3; run 1, 2, 3 -> r = 1.
const edition = toyEdition()
const gold = goldOf(edition, { a: lines([1, "", 3, 4, 2]), b: lines([1, 2, 3]) })
const A = lines([1, 9, 2, 4, 3])
const B = lines([1, 2, 3])
const score = (files: Record<string, string>, ed = edition, g = gold) => scoreRun(ed, g, submission(files))
const ds = (run: ScoredRun.ScoredRun, name: string) => run.datasets.find((d) => d.dataset === name)!

describe("STS: alignment by line number", () => {
  it("skips blank gold lines, counts them, and scores the rest (hand-worked r = 0.8)", () => {
    const run = score({ "STS.output.a.txt": A, "STS.output.b.txt": B })
    const a = ds(run, "a")
    expect(a.status).toBe("scored")
    expect(a.pairs).toBe(4)
    expectClose(a.figures.pearson, 0.8)
    expectClose(a.figures.spearman, 0.8)
    expect(a.figures["weighted-pearson"]).toBeUndefined()
    const note = run.infos.find((i) => i.code === "not-annotated" && i.file.endsWith("STS.output.a.txt"))!
    expect(note.message).toMatch(/^4 of 5 pairs annotated; 4 scored/)
    // the out-of-scale 9 sits on the non-annotated line: nothing to warn about
    expect(run.warnings).toEqual([])
    // wmean by scored pairs: (0.8 * 4 + 1 * 3) / 7
    expectClose(run.official[0].value, (0.8 * 4 + 3) / 7)
    expectClose(run.aggregates["official"].mean!.value, 0.9)
  })

  it("a length mismatch is an error and the dataset is not scored (counts as r = 0 officially)", () => {
    const run = score({ "STS.output.a.txt": lines([1, 9, 2, 4]), "STS.output.b.txt": B })
    const a = ds(run, "a")
    expect(a.status).toBe("not-scored")
    const err = run.errors.find((i) => i.code === "length-mismatch")!
    expect(err.found).toBe("4 score lines")
    expect(err.expected).toBe("5 score lines")
    expect(a.figures.pearson._tag).toBe("Undefined")
    // r = 0 with a's full weight (4 annotated pairs): (0 * 4 + 1 * 3) / 7
    expectClose(run.official[0].value, 3 / 7)
    expect(run.official[0].zeroed.map((z) => z.dataset)).toEqual(["a"])
    expect(run.status).toBe("scored")
  })

  it("a non-numeric or non-finite score: an error with the line, the dataset is not scored", () => {
    for (const [bad, code] of [["x", "not-a-number"], ["Infinity", "non-finite"], ["NaN", "non-finite"]] as const) {
      const run = score({ "STS.output.a.txt": lines([1, 9, bad, 4, 3]), "STS.output.b.txt": B })
      const err = run.errors.find((i) => i.code === code)!
      expect(err.line).toBe(3)
      expect(ds(run, "a").status).toBe("not-scored")
      expect(ds(run, "b").status).toBe("scored")
    }
  })

  it("scores outside the edition's scale are a warning with the first line", () => {
    const run = score({ "STS.output.a.txt": lines([1, 9, 2, 4, 5.5]), "STS.output.b.txt": B })
    const w = run.warnings.find((i) => i.code === "out-of-scale")!
    expect(w.line).toBe(5)
    expect(w.found).toBe("5.5")
    expect(ds(run, "a").status).toBe("scored")
  })

  it("a run of every gold line (dataset b, no blank gold line): its values, confidences and out-of-scale lines as written", () => {
    // a comment on line 1 puts the scores on lines 2-4; 6 and -1 lie outside 0-5, the first on line 2
    const v = validateRun(edition, gold, submission({ "STS.output.a.txt": A, "STS.output.b.txt": "# note\n6\t10\n-1\t20\n3\t30\n" }))
    const b = v.datasets.find((d) => d.dataset === "b")!
    expect(b.aligned?.kind === "scores" && [Array.from(b.aligned.gold), Array.from(b.aligned.run), Array.from(b.aligned.confidence ?? [])]).toEqual([
      [1, 2, 3],
      [6, -1, 3],
      [10, 20, 30]
    ])
    const w = b.issues.find((i) => i.code === "out-of-scale")!
    expect([w.line, w.found, w.message.startsWith("2 scores of 3 lie outside")]).toEqual([2, "6", true])
    // the same values with no comment and no confidence: lines 1-3, the first outside on line 2
    const plain = validateRun(edition, gold, submission({ "STS.output.a.txt": A, "STS.output.b.txt": "1\n-1\n3\n" })).datasets.find((d) => d.dataset === "b")!
    expect(plain.aligned?.kind === "scores" && [Array.from(plain.aligned.run), plain.aligned.confidence]).toEqual([[1, -1, 3], undefined])
    expect(plain.issues.find((i) => i.code === "out-of-scale")?.line).toBe(2)
  })

  it("a file matching no dataset: unknown-file warning; a dataset without a file: missing-dataset", () => {
    const run = score({ "STS.output.b.txt": B, "notes.txt": "hello\n" })
    expect(run.warnings.map((i) => i.code).sort()).toEqual(["missing-dataset", "unknown-file"])
    expect(ds(run, "a").status).toBe("missing")
    expect(ds(run, "a").weight).toBe(4)
    expectClose(run.official[0].value, 3 / 7)
    // the labelled (non-official) wmean covers the scored datasets only
    expect(run.aggregates["official"].wmean!.value).toEqual({ _tag: "Defined", value: 1 })
    expect(run.aggregates["official"].wmean!.datasets).toEqual(["b"])
  })

  it("a constant run: Pearson undefined with the reason (never 0 or NaN), JSON null + reason", () => {
    const run = score({ "STS.output.a.txt": lines([2, 2, 2, 2, 2]), "STS.output.b.txt": B })
    expect(ds(run, "a").figures.pearson).toEqual({ _tag: "Undefined", reason: "the run is constant" })
    expect(ds(run, "a").figures.spearman).toEqual({ _tag: "Undefined", reason: "the run is constant" })
    const json = ResultJson.toJson(run)
    expect(json.datasets["a"].figures["pearson"]).toBeNull()
    expect(json.datasets["a"].undefined).toEqual({ pearson: "the run is constant", spearman: "the run is constant" })
    expect(JSON.stringify(json)).not.toMatch(/NaN/)
  })

  it("a run with a confidence column also gets the confidence-weighted Pearson", () => {
    // equal confidences: weighted Pearson = Pearson
    const equal = score({ "STS.output.a.txt": lines(["1\t50", "9\t50", "2\t50", "4\t50", "3\t50"]), "STS.output.b.txt": B })
    expectClose(ds(equal, "a").figures["weighted-pearson"], 0.8)
    // weight 0 on pair (4,4) leaves x = [1, 2, 3], y = [1, 3, 2]: r = 0.5
    const zero = score({ "STS.output.a.txt": lines(["1\t100", "9\t100", "2\t100", "4\t0", "3\t100"]), "STS.output.b.txt": B })
    expectClose(ds(zero, "a").figures["weighted-pearson"], 0.5)
    expectClose(ds(zero, "a").figures.pearson, 0.8)
  })

  it("a run whose every file is broken fails, with the reasons", () => {
    const run = score({ "STS.output.a.txt": "oops\n", "STS.output.b.txt": "" })
    expect(run.status).toBe("failed")
    expect(run.failure).toMatch(/no dataset can be scored/)
    expect(run.official[0].value).toEqual({ _tag: "Undefined", reason: "no dataset was scored" })
  })

  it("the gold of a dataset is missing: that dataset cannot be scored, and says so", () => {
    const partial = goldOf(edition, { b: B })
    const run = score({ "STS.output.a.txt": A, "STS.output.b.txt": B }, edition, partial)
    expect(ds(run, "a").status).toBe("not-scored")
    expect(ds(run, "a").reason).toMatch(/no gold/)
    expect(run.official[0].value._tag).toBe("Undefined")
  })
})

describe("missing-dataset rule no-official-score (as STS 2017)", () => {
  const ed = toyEdition({ ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "mean" }], missingDataset: "no-official-score" })
  it("a run lacking a dataset has no official score, keeps its per-dataset figures and is not failed", () => {
    const run = score({ "STS.output.a.txt": A }, ed)
    expect(run.status).toBe("scored")
    expectClose(ds(run, "a").figures.pearson, 0.8)
    expect(run.official[0].value._tag).toBe("Undefined")
    expect([run.official[0].metric, run.official[0].rule]).toEqual(["pearson", "mean"])
    expect(run.warnings.find((i) => i.code === "missing-dataset")!.message).toMatch(/no official score/)
  })
  it("the missing file's issue names where it was expected: inside the run folder, or the zip", () => {
    for (const [kind, runPath, where] of [["folder", "subs/ECNU_run1", "subs/ECNU_run1/STS.output.b.txt"], ["zip", "subs/ECNU_run1.zip", "subs/ECNU_run1.zip!STS.output.b.txt"]] as const) {
      const run = scoreRun(ed, gold, { ...submission({ "STS.output.a.txt": A }, {}, runPath), kind })
      expect(run.warnings.find((i) => i.code === "missing-dataset")!.file).toBe(where)
    }
  })
  it("with every dataset: the unweighted mean", () => {
    const run = score({ "STS.output.a.txt": A, "STS.output.b.txt": B }, ed)
    expectClose(run.official[0].value, 0.9)
  })
})

describe("STS 2017 track 6: input 500 lines, gold 250", () => {
  const sts2017 = Registry.get("sts2017")!
  const spec = sts2017.datasets.find((d) => d.name === "track6.tr-en")!
  // gold 0..5 in a cycle; the run is the gold with a deterministic wobble, then 250 lines of noise
  const g = Array.from({ length: 250 }, (_, i) => (i * 7) % 6)
  const r = g.map((v, i) => v + ((i * 13) % 5) / 4)
  const trackGold = goldOf(sts2017, { "track6.tr-en": lines(g) })
  const check = (run: ReadonlyArray<number>) =>
    validateRun(sts2017, trackGold, submission({ [spec.run]: lines(run), "STS.output.track5.en-en.txt": "1\n" })).datasets.find((d) => d.dataset === spec.name)!
  const expected = Pearson.pearson(Float64Array.from(g), Float64Array.from(r))

  it("a 250-line run is scored whole, and says which lines", () => {
    const c = check(r)
    expect(c.status).toBe("scored")
    expect(c.linesScored).toEqual([1, 250])
    expect(scoreDataset(sts2017, c).figures.pearson).toEqual(expected)
    expect(c.issues.find((i) => i.code === "lines-scored")!.message).toMatch(/all scored \(input lines 1-250/)
  })

  it("a 500-line run: lines 1-250 are scored, lines 251-500 ignored", () => {
    const noise = Array.from({ length: 250 }, (_, i) => (i * 31) % 5)
    const c = check([...r, ...noise])
    expect(c.status).toBe("scored")
    expect(c.runLines).toBe(500)
    expect(c.linesScored).toEqual([1, 250])
    expect(scoreDataset(sts2017, c).figures.pearson).toEqual(expected)
    expect(scoreDataset(sts2017, c).figures.spearman).toEqual(Spearman.spearman(Float64Array.from(g), Float64Array.from(r)))
    // Spearman is computed on first read and kept: the same value read twice, copied by a spread
    // and written to JSON, as an eager field would be
    const scored = scoreDataset(sts2017, c).figures
    const first = scored.spearman
    expect(scored.spearman).toBe(first)
    expect({ ...scored }.spearman).toEqual(first)
    expect((JSON.parse(JSON.stringify(scored)) as { spearman: unknown }).spearman).toEqual(JSON.parse(JSON.stringify(first)))
    expect(c.issues.find((i) => i.code === "lines-scored")!.message).toMatch(/^lines 1-250 of the run's 500 are scored/)
  })

  it("any other length is a length-mismatch error", () => {
    const c = check([...r, 1, 2, 3])
    expect(c.status).toBe("not-scored")
    expect(c.issues.find((i) => i.code === "length-mismatch")!.expected).toBe("250 or 500 score lines")
  })
})
