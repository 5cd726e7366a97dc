/**
 * SemEval-2024 Task 1 lexical-overlap baseline: hand-worked Dice values, Python `str.split()`
 * tokens, runs written as `pred_<lang>.csv` that the SemRel reader matches back, and — with
 * ../shared — all 30 rows of ../shared/reference/semrel2024-lexical-overlap.tsv (Spearman against
 * the gold of every labelled test set) to 1e-9.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { tsvRows } from "@stseval/vitest-config/tsv"
import { Baseline, LexicalOverlap, Run } from "@stseval/baselines"
import { Issue, SemRel, Text } from "@stseval/formats"
import { Spearman } from "@stseval/metrics"
import { hasShared, shared, skipNote } from "./helpers.js"

describe("Dice coefficient of white-space token sets (hand-worked)", () => {
  it("2 |A ∩ B| / (|A| + |B|) over sets: repeats count once, case and punctuation kept", () => {
    // {a, man, sings} vs {a, man, dances}: 2 * 2 / 6
    expect(LexicalOverlap.dice(["a", "man", "sings"], ["a", "man", "a", "dances"])).toBeCloseTo(2 / 3, 15)
    expect(LexicalOverlap.dice(["x"], ["x"])).toBe(1)
    expect(LexicalOverlap.dice(["x"], ["y", "z"])).toBe(0)
    expect(Number.isNaN(LexicalOverlap.dice([], []))).toBe(true)
    const { scores } = LexicalOverlap.score([{ sentence1: "The cat sat.", sentence2: "the cat sat" }])
    // {The, cat, sat.} vs {the, cat, sat}: only "cat" shared
    expect(scores[0]).toBeCloseTo(2 / 6, 15)
  })

  it("tokens are Python's str.split(): any Unicode white space, including U+001C-U+001F and U+0085, not U+FEFF", () => {
    expect(LexicalOverlap.tokens("  a\u00a0b\u3000c\u001cd\u0085e\tf\n")).toEqual(["a", "b", "c", "d", "e", "f"])
    expect(LexicalOverlap.tokens("a\ufeffb")).toEqual(["a\ufeffb"])
    expect(LexicalOverlap.tokens("   ")).toEqual([])
  })

  it("two empty sentences score 0, with a note", () => {
    const r = LexicalOverlap.score([{ sentence1: "", sentence2: " " }])
    expect(Array.from(r.scores)).toEqual([0])
    expect(r.notes[0]).toMatch(/two empty sentences/)
  })
})

describe("a SemRel run of the baseline", () => {
  const pairs = [
    { sentence1: "A man sings.", sentence2: "A man sings." },
    { sentence1: "Dogs bark", sentence2: "Cats purr" },
    { sentence1: "I like tea", sentence2: "I like coffee" }
  ]
  it("is in the catalogue as an STS-family baseline", () => {
    expect(Baseline.get("lexical-overlap")).toMatchObject({ family: "sts", needs: [] })
  })

  it("writes pred_<lang>.csv per language, which the SemRel reader matches to the gold by PairID", () => {
    const made = Baseline.sts("lexical-overlap", [{ dataset: "eng", pairs, pairIds: ["E1", "E2", "E3"] }], { shape: "semrel" })
    const files = Run.toRun(made.run, { team: "baseline" })
    expect(files.map((f) => f.path)).toEqual(["baseline_run1primary/pred_eng.csv"])
    const gold: SemRel.GoldPairs = { file: "eng_test_with_labels.csv", pairIds: ["E3", "E1", "E2"], scores: Float64Array.of(0.5, 1, 0) }
    const m = SemRel.matchRun(Text.fromString(files[0].contents, files[0].path).value, gold)
    expect(m.issues).toEqual([])
    // gold order E3, E1, E2: {I, like, tea} vs {I, like, coffee} = 4/6; identical = 1; disjoint = 0
    expect(Array.from(m.value.run)).toEqual([4 / 6, 1, 0])
  })

  it("refuses to write a SemRel run without pair IDs", () => {
    expect(() => Baseline.sts("lexical-overlap", [{ dataset: "eng", pairs }], { shape: "semrel" })).toThrow(/pair ID/)
  })
})

describe("GLUE STS-B.tsv from a baseline (--format glue)", () => {
  it("writes <name>/STS-B.tsv with GLUE's header, read back by index", () => {
    const files = Run.toRun({ _tag: "stsb", scores: [0.5, 4.25, 0] }, { team: "baseline" }, { format: "glue" })
    expect(files).toEqual([{ path: "baseline_run1primary/STS-B.tsv", contents: "index\tprediction\n0\t0.5\n1\t4.25\n2\t0\n" }])
    expect(() => Run.toRun({ _tag: "stsb", scores: [6] }, {}, { format: "glue" })).toThrow(/0 to 5/)
    expect(() => Run.toRun({ _tag: "sts", datasets: [] }, {}, { format: "glue" })).toThrow(/STS Benchmark/)
  })
})

skipNote("LexicalOverlap SemRel reference suite")
describe.skipIf(!hasShared)("../shared/reference/semrel2024-lexical-overlap.tsv (the organisers' baseline on every labelled test set)", () => {
  const rows = hasShared
    ? tsvRows(path.join(shared, "reference", "semrel2024-lexical-overlap.tsv")).map(([track, lang, pairs, spearman]) => ({ track, lang, pairs: Number(pairs), spearman: Number(spearman) }))
    : []
  it("has 30 rows", () => {
    expect(rows).toHaveLength(30)
  })
  it.each(rows)("$track $lang: $pairs pairs, Spearman $spearman to 1e-9", ({ track, lang, pairs, spearman }) => {
    const file = path.join(shared, "data", "semrel2024", track, lang, `${lang}_test_with_labels.csv`)
    const text = Text.decode(new Uint8Array(fs.readFileSync(file)), file)
    const data = SemRel.parseData(text.value)
    expect(Issue.hasErrors([...text.issues, ...data.issues])).toBe(false)
    expect(data.value.pairs).toHaveLength(pairs)
    const { scores } = LexicalOverlap.score(data.value.pairs)
    const rho = Spearman.spearman(Float64Array.from(data.value.pairs, (p) => p.score!), scores)
    if (rho._tag !== "Defined") throw new Error(rho.reason)
    expect(Math.abs(rho.value - spearman)).toBeLessThan(1e-9)
  })
})
