// Against the official scorers' figures in ../shared/reference (skipped, with a warning, when
// ../shared is not beside the checkout), plus small hand-made fixtures that exercise the same
// alignment code so that this file tests something without ../shared too.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { Accuracy, Mse, Pearson, Spearman } from "@stseval/metrics"
import type { MetricValue } from "@stseval/metrics"
import { alignByLine, hasShared, readRun, readStsbGold, readStsGold, readTable, sharedDir } from "./support/Readers.js"

const value = (m: MetricValue.MetricValue): number => {
  if (m._tag !== "Defined") throw new Error(`expected a value, got undefined: ${m.reason}`)
  return m.value
}
const fixtures = path.join(import.meta.dirname, "fixtures")

/** SICK: join the run to the gold by pair_ID (rows in any order). */
const joinSick = (goldFile: string, runFile: string) => {
  const gold = readTable(goldFile)
  const run = new Map(readTable(runFile).map((r) => [r.pair_ID, r]))
  const x = new Float64Array(gold.length)
  const y = new Float64Array(gold.length)
  const goldLabels: Array<string> = []
  const runLabels: Array<string> = []
  gold.forEach((g, i) => {
    const r = run.get(g.pair_ID)
    if (r === undefined) throw new Error(`pair_ID ${g.pair_ID} missing from the run`)
    x[i] = Number(r.relatedness_score)
    y[i] = Number(g.relatedness_score)
    goldLabels.push(g.entailment_judgment)
    runLabels.push(r.entailment_judgment)
  })
  return { x, y, goldLabels, runLabels, runSize: run.size }
}

describe("reference readers on hand-made fixtures", () => {
  it("STS: skips the non-annotated pair, reads the first field, copes with CRLF", () => {
    // gold lines 1, (blank), 3, 2; run lines 1, 9, 2, 3 -> scored pairs (1,1), (2,3), (3,2):
    // run [1,2,3] vs gold [1,3,2] -> r = 0.5 (hand-worked in Pearson.test.ts).
    const { x, y } = alignByLine(
      readRun(path.join(fixtures, "STS.output.tiny.txt")),
      readStsGold(path.join(fixtures, "STS.gs.tiny.txt"))
    )
    expect(Array.from(x)).toEqual([1, 2, 3])
    expect(value(Pearson.pearson(y, x))).toBeCloseTo(0.5, 15)
  })

  it("SICK: joins by pair_ID", () => {
    // gold by pair 1,2,3: relatedness 1,3,2, labels N,E,C; run: 1 N 1, 2 E 2, 3 N 3.
    // Relatedness: run [1,2,3] vs gold [1,3,2] -> r = 0.5, MSE = (0 + 1 + 1)/3.
    // Entailment: pairs 1 and 2 right -> 66.67%.
    const j = joinSick(path.join(fixtures, "SICK_gold.tiny.txt"), path.join(fixtures, "SICK_run.tiny.txt"))
    expect(value(Pearson.pearson(j.y, j.x))).toBeCloseTo(0.5, 15)
    expect(value(Mse.mse(j.y, j.x))).toBeCloseTo(2 / 3, 15)
    expect(Accuracy.accuracy(j.goldLabels, j.runLabels).accuracy).toBeCloseTo(200 / 3, 12)
  })
})

if (!hasShared) {
  console.warn(`[metrics] ${sharedDir} not found: skipping the official-reference tests (STS synthetic runs, SICK overlap baseline)`)
}

describe.skipIf(!hasShared)("STS synthetic runs vs the official scorers (reference/sts-synthetic-runs.official.tsv)", () => {
  const rows = hasShared ? readTable(path.join(sharedDir, "reference/sts-synthetic-runs.official.tsv")) : []
  const data = path.join(sharedDir, "data")

  it("has the reference rows", () => {
    expect(rows.length).toBe(33)
  })

  for (const row of rows) {
    it(`${row.year} ${row.dataset}`, () => {
      const gold = row.gold_file.endsWith(".csv")
        ? readStsbGold(path.join(data, row.gold_file))
        : readStsGold(path.join(data, row.gold_file))
      const { x, y } = alignByLine(readRun(path.join(data, row.run_file)), gold)
      expect(x.length).toBe(Number(row.scored_pairs))
      const r = value(Pearson.pearson(y, x))
      expect(Math.abs(r - Number(row.pearson_R))).toBeLessThan(1e-9)
      expect(Math.abs(value(Spearman.spearman(y, x)) - Number(row.spearman_R))).toBeLessThan(1e-9)
      // The Perl scorer prints 5 decimals.
      expect(r.toFixed(5)).toBe(row.pearson_official_perl)
      // Offsetting every score by 1e9 only perturbs the inputs by their rounding (ulp 1.2e-7).
      const far = value(Pearson.pearson(y.map((v) => v + 1e9), x.map((v) => v + 1e9)))
      expect(Math.abs(far - Number(row.pearson_R))).toBeLessThan(1e-6)
    })
  }
})

describe.skipIf(!hasShared)("SICK overlap baseline vs the official R scorer (reference/sick-test.overlap-baseline.official-R.txt)", () => {
  it("reproduces Pearson, Spearman, MSE and accuracy to 1e-9", () => {
    const j = joinSick(
      path.join(sharedDir, "data/sick2014/SICK_test_annotated.txt"),
      path.join(sharedDir, "reference/sick-test.overlap-baseline.txt")
    )
    expect(j.x.length).toBe(4927)
    expect(j.runSize).toBe(4927)
    // Figures from the official R scorer's output file (parsed, not copied, so a changed file fails).
    const official = readOfficialR(path.join(sharedDir, "reference/sick-test.overlap-baseline.official-R.txt"))
    expect(official).toEqual({ accuracy: 56.1599350517556, pearson: 0.627010732001107, spearman: 0.592996491011706, mse: 10.0092930264519 })
    expect(Math.abs(value(Pearson.pearson(j.y, j.x)) - official.pearson)).toBeLessThan(1e-9)
    expect(Math.abs(value(Spearman.spearman(j.y, j.x)) - official.spearman)).toBeLessThan(1e-9)
    expect(Math.abs(value(Mse.mse(j.y, j.x)) - official.mse)).toBeLessThan(1e-9)
    const acc = Accuracy.accuracy(j.goldLabels, j.runLabels, ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"])
    expect(Math.abs(acc.accuracy - official.accuracy)).toBeLessThan(1e-9)
    expect(acc.total).toBe(4927)
    // Rows of the confusion matrix add up to the gold label counts.
    expect(acc.confusion.map((row) => row.reduce((a, b) => a + b, 0))).toEqual(
      acc.labels.map((l) => j.goldLabels.filter((g) => g === l).length)
    )
  })
})

function readOfficialR(file: string) {
  const text = fs.readFileSync(file, "utf8")
  const grab = (re: RegExp): number => {
    const m = re.exec(text)
    if (m === null) throw new Error(`${file}: ${re} not found`)
    return Number(m[1])
  }
  return {
    accuracy: grab(/accuracy ([0-9.]+)%/),
    pearson: grab(/Pearson correlation ([0-9.]+)/),
    spearman: grab(/Spearman correlation ([0-9.]+)/),
    mse: grab(/MSE ([0-9.]+)/)
  }
}
