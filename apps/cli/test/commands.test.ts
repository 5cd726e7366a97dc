/**
 * compare, significance, baseline, report and watch run through the CLI (in-process), on the SICK data
 * the repository ships. Figures are checked against hand-worked formulas computed here from the raw
 * files (not through any stseval package) and against the official R scorer's figures.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { backdate, examples, hasShared, runCli, shared } from "./support/cli.js"
import { pearson } from "@stseval/vitest-config/reference"

const sickGold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const submissions = path.join(examples, "sick2014/submissions")
const runFile = (name: string) => path.join(submissions, name)
const meaningFactory = runFile("MeaningFactory_run1primary.txt")
const insight = runFile("Insight_run1primary.txt")
const overlap = runFile("Baseline-overlap_run1primary.txt")

const tmp = scratchDir("cli-commands")

// ---- independent readers and formulas -------------------------------------------------------

/** pair_ID -> [relatedness, entailment] from a headed SICK tab-separated file. */
const readSick = (file: string, relatednessColumn: string, entailmentColumn: string): Map<string, [number, string]> => {
  const [header, ...rows] = fs.readFileSync(file, "utf8").trimEnd().split(/\r?\n/)
  const names = header.split("\t")
  const rel = names.indexOf(relatednessColumn)
  const ent = names.indexOf(entailmentColumn)
  return new Map(rows.map((row) => {
    const f = row.split("\t")
    return [f[0], [Number(f[rel]), f[ent]]]
  }))
}
const gold = readSick(sickGold, "relatedness_score", "entailment_judgment")
const ids = [...gold.keys()]
const runOf = (file: string) => readSick(file, "relatedness_score", "entailment_judgment")

/** Williams' t for r_jk vs r_jh sharing variable j, in Steiger's (1980) form, as cocor computes it. */
const williams = (rjk: number, rjh: number, rkh: number, n: number): number => {
  const det = 1 - rjk ** 2 - rjh ** 2 - rkh ** 2 + 2 * rjk * rjh * rkh
  const rbar = (rjk + rjh) / 2
  return ((rjk - rjh) * Math.sqrt((n - 1) * (1 + rkh))) / Math.sqrt((2 * (n - 1) / (n - 3)) * det + rbar ** 2 * (1 - rkh) ** 3)
}

const relatedness = (run: Map<string, [number, string]>) => ids.map((id) => run.get(id)![0])
const goldRelatedness = ids.map((id) => gold.get(id)![0])

// ---- compare ----------------------------------------------------------------------------------

interface Comparison {
  test: string
  estimateA: number
  estimateB: number
  statistic: number
  pValue: number
  df?: number
  ci?: [number, number]
  signature?: string
  valid?: number
  degenerate?: number
}
interface CompareJson {
  runA: string
  runB: string
  datasets: Array<{ dataset: string; pairs: number; comparison: Comparison }>
  entailment?: { method: string; b: number; c: number; statistic: number; pValue: number; accuracyA: number; accuracyB: number }
  skipped: Array<{ dataset: string; reason: string }>
  runErrors: Array<{ code: string; file: string; line?: number }>
  errors: Array<string>
}

describe("stseval compare (shipped SICK runs)", () => {
  it("Williams' t on relatedness equals the formula worked from the raw files", async () => {
    const r = await runCli(["compare", "--task", "sick2014", "--gold", sickGold, meaningFactory, insight, "--json"])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as CompareJson
    expect([out.runA, out.runB]).toEqual(["MeaningFactory/run1", "Insight/run1"])
    const { comparison, pairs } = out.datasets[0]
    const a = relatedness(runOf(meaningFactory))
    const b = relatedness(runOf(insight))
    const rA = pearson(goldRelatedness, a)
    const rB = pearson(goldRelatedness, b)
    expect(pairs).toBe(4927)
    expect(comparison.test).toBe("williams1959")
    expect(comparison.estimateA).toBeCloseTo(rA, 12)
    expect(comparison.estimateB).toBeCloseTo(rB, 12)
    expect(comparison.df).toBe(4927 - 3)
    const t = williams(rA, rB, pearson(a, b), 4927)
    expect(Math.abs(comparison.statistic - t) / t).toBeLessThan(1e-9)
    expect(comparison.pValue).toBeLessThan(1e-100)
    // Insight took no part in entailment: no McNemar, and the reason is given
    expect(out.entailment).toBeUndefined()
    expect(out.skipped.map((x) => x.dataset)).toEqual(["entailment"])
    expect(out.skipped[0].reason).toContain("Insight/run1: the run's entailment_judgment column holds NA")
  })

  it("McNemar on entailment counts the discordant pairs as the raw files give them", async () => {
    const r = await runCli(["compare", "--task", "sick2014", "--gold", sickGold, meaningFactory, overlap, "--json"])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as CompareJson
    const a = runOf(meaningFactory)
    const b = runOf(overlap)
    let onlyA = 0, onlyB = 0
    for (const id of ids) {
      const truth = gold.get(id)![1]
      const okA = a.get(id)![1] === truth
      const okB = b.get(id)![1] === truth
      if (okA && !okB) onlyA++
      if (okB && !okA) onlyB++
    }
    expect(out.entailment).toMatchObject({ b: onlyA, c: onlyB })
    // with counts this large the chi-square form with continuity correction applies
    expect(out.entailment!.statistic).toBeCloseTo((Math.abs(onlyA - onlyB) - 1) ** 2 / (onlyA + onlyB), 9)
    // the official accuracy of the overlap baseline, 56.16%
    expect(out.entailment!.accuracyB).toBeCloseTo(56.1599350517556, 9)
  })

  it("paired bootstrap: seeded and reproducible, signed, +1 smoothed, CI around the observed difference", async () => {
    const args = ["compare", "--task", "sick2014", "--gold", sickGold, meaningFactory, overlap, "--test", "bootstrap", "--resamples", "400", "--seed", "7", "--json"]
    const [first, second] = await Promise.all([runCli(args), runCli(args)])
    expect(first.code).toBe(0)
    expect(first.stdout).toBe(second.stdout)
    const c = (JSON.parse(first.stdout) as CompareJson).datasets[0].comparison
    expect(c.signature).toContain("method:bootstrap")
    expect(c.signature).toContain("resamples:400")
    expect(c.signature).toContain("seed:7")
    expect(c.valid! + c.degenerate!).toBe(400)
    // A is far better: no resample reverses the difference, so p is the smallest +1-smoothed value
    expect(c.pValue).toBeCloseTo(1 / 401, 12)
    const diff = c.estimateA - c.estimateB
    expect(c.ci![0]).toBeLessThan(diff)
    expect(c.ci![1]).toBeGreaterThan(diff)
  })

  it("a malformed run is an error naming the file and line: exit 1", async () => {
    const r = await runCli(["compare", "--task", "sick2014", "--gold", sickGold, meaningFactory, runFile("Insight_run2.txt"), "--json"])
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout) as CompareJson
    expect(out.datasets).toHaveLength(0)
    expect(out.skipped[0].reason).toContain("line 2 has 4 fields")
    expect(out.runErrors[0]).toMatchObject({ code: "field-count", line: 2 })
    expect(out.runErrors[0].file).toContain("Insight_run2.txt")
  })
})

describe("stseval compare / significance with a constant run (its correlation is undefined)", () => {
  // The Meaning Factory's labels with every relatedness score set to 3: Pearson has no value
  const folder = path.join(tmp, "constant")
  fs.mkdirSync(folder, { recursive: true })
  const constant = path.join(folder, "Flat_run1primary.txt")
  const lines = fs.readFileSync(meaningFactory, "utf8").trimEnd().split("\n")
  fs.writeFileSync(constant, [lines[0], ...lines.slice(1).map((l) => l.replace(/\t[^\t]*$/, "\t3"))].join("\n") + "\n")
  fs.copyFileSync(meaningFactory, path.join(folder, "MeaningFactory_run1primary.txt"))

  it("compare skips relatedness with the reason and still tests entailment", async () => {
    const r = await runCli(["compare", "--task", "sick2014", "--gold", sickGold, meaningFactory, constant, "--json"])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as CompareJson
    expect(out.datasets).toEqual([])
    expect(out.skipped.map((x) => x.dataset)).toEqual(["relatedness"])
    expect(out.skipped[0].reason).toContain("Flat/run1: its Pearson with the gold is undefined")
    // the RUN is constant (compare used to pass gold and run the wrong way round and blame the gold)
    expect(out.skipped[0].reason).toContain("(the run is constant)")
    expect(out.entailment?.b).toBe(0)
    expect(out.entailment?.c).toBe(0)
  })

  it("significance leaves the constant run out; with one run left there is nothing to test: exit 1 and the reason", async () => {
    const r = await runCli(["significance", "--task", "sick2014", "--gold", sickGold, folder, "--json"])
    expect(r.code).toBe(1)
    const doc = JSON.parse(r.stdout) as { tests: Array<{ ranking: string; error: string; runs: Array<unknown>; excluded: Array<{ run: string; reason: string }> }> }
    // relatedness is tested (entailment, labels, is McNemar's: compare)
    expect(doc.tests.map((t) => t.ranking)).toEqual(["relatedness"])
    const out = doc.tests[0]
    expect(out.runs).toEqual([])
    expect(out.error).toContain("fewer than two comparable runs")
    expect(out.excluded.map((x) => x.run)).toEqual(["Flat/run1"])
    expect(out.excluded[0].reason).toContain("no relatedness figure")
    expect(out.excluded[0].reason).toContain("the run is constant")
    expect(out.excluded[0].reason).not.toContain("gold is constant")
    const text = await runCli(["significance", "--task", "sick2014", "--gold", sickGold, folder])
    expect(text.code).toBe(1)
    expect(text.stderr).toContain("nothing to test")
    expect(text.stderr).toContain("left out: Flat/run1")
  })
})

// ---- significance -----------------------------------------------------------------------------

describe("stseval significance (shipped SICK submissions folder)", () => {
  it("ranks the primary runs, tests each against the best with Williams' t, bolds only the best here", async () => {
    const r = await runCli(["significance", "--task", "sick2014", "--gold", sickGold, submissions, "--json"])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout) as {
      tests: Array<{
        ranking: string
        test: string
        metric: string
        runs: Array<{ position: number; run: string; estimate: number; bold: boolean }>
        comparisons: Array<{ a: string; b: string; statistic: number; pValue: number }>
      }>
      skipped: Array<{ ranking: string }>
    }
    expect(doc.tests.map((t) => [t.ranking, t.metric, t.test])).toEqual([["relatedness", "pearson", "williams1959"]])
    expect(doc.skipped.map((x) => x.ranking)).toEqual(["entailment"])
    const out = doc.tests[0]
    expect(out.runs.map((x) => x.run)).toEqual(["MeaningFactory/run1", "Insight/run1", "Baseline-overlap/run1"])
    expect(out.runs.map((x) => x.bold)).toEqual([true, false, false])
    const best = relatedness(runOf(meaningFactory))
    for (const [name, file] of [["Insight/run1", insight], ["Baseline-overlap/run1", overlap]] as const) {
      const other = relatedness(runOf(file))
      const c = out.comparisons.find((x) => x.a === "MeaningFactory/run1" && x.b === name)!
      const t = williams(pearson(goldRelatedness, best), pearson(goldRelatedness, other), pearson(best, other), 4927)
      expect(Math.abs(c.statistic - t) / t).toBeLessThan(1e-9)
    }
  })

  it("--against all: every pair in the compact matrix (one row per run), the records it holds with --records", async () => {
    type Test = {
      runs: Array<{ run: string }>
      comparisons: Array<{ a: string; b: string; statistic: number; pValue: number; adjustedP: number }>
      matrix?: { pValue: Array<Array<number>>; adjustedP: Array<Array<number>>; statistic: Array<Array<number>>; ciLow?: unknown }
    }
    const args = ["significance", "--task", "sick2014", "--gold", sickGold, submissions, "--all-runs", "--against", "all", "--correction", "holm", "--json"]
    const [compact, full] = await Promise.all([runCli(args), runCli([...args, "--records"])])
    expect(compact.code).toBe(0)
    expect(full.code).toBe(0)
    const m = (JSON.parse(compact.stdout) as { tests: Array<Test> }).tests[0]
    const f = (JSON.parse(full.stdout) as { tests: Array<Test> }).tests[0]
    expect(m.comparisons).toEqual([])
    expect(f.matrix).toBeUndefined()
    const K = m.runs.length
    expect(K).toBeGreaterThanOrEqual(3)
    expect(m.runs).toEqual(f.runs)
    // K - 1 rows, row i holding runs[i] against the K - 1 - i runs below it
    expect(m.matrix!.pValue.map((row) => row.length)).toEqual(Array.from({ length: K - 1 }, (_, i) => K - 1 - i))
    expect(m.matrix!.ciLow).toBeUndefined()
    expect(f.comparisons).toHaveLength((K * (K - 1)) / 2)
    const at = (id: string) => m.runs.findIndex((r) => r.run === id)
    for (const c of f.comparisons) {
      const i = at(c.a)
      const j = at(c.b)
      expect(i).toBeLessThan(j)
      expect(m.matrix!.pValue[i][j - i - 1]).toBe(c.pValue)
      expect(m.matrix!.adjustedP[i][j - i - 1]).toBe(c.adjustedP)
      expect(m.matrix!.statistic[i][j - i - 1]).toBe(c.statistic)
    }
    // one pair by hand: Williams' t of MeaningFactory (the best) against Insight, from the files themselves
    const i = at("MeaningFactory/run1")
    const j = at("Insight/run1")
    expect(i).toBe(0)
    const x = relatedness(runOf(meaningFactory))
    const y = relatedness(runOf(insight))
    const t = williams(pearson(goldRelatedness, x), pearson(goldRelatedness, y), pearson(x, y), 4927)
    expect(Math.abs(m.matrix!.statistic[i][j - i - 1] - t) / Math.abs(t)).toBeLessThan(1e-9)
  })

  it("prints a readable table and the list of runs tied with the best", async () => {
    const r = await runCli(["significance", "--task", "sick2014", "--gold", sickGold, submissions])
    expect(r.code).toBe(0)
    // the edition's published style, as score and rank print it (SICK 2014: r to 3 decimals)
    expect(r.stdout).toMatch(/^1\s+MeaningFactory\/run1\s+0\.826\s/m)
    expect(r.stdout).toContain("not significantly different from the best")
  })
})

// ---- baseline ---------------------------------------------------------------------------------

describe("stseval baseline", () => {
  it("--list names every baseline; an unknown name or a baseline of the other family is a usage error", async () => {
    const [list, unknown, wrong] = await Promise.all([
      runCli(["baseline", "--list"]),
      runCli(["baseline", "nonsense", "--task", "sick2014"]),
      runCli(["baseline", "tokencos", "--task", "sick2014", "--input", sickGold])
    ])
    expect(list.code).toBe(0)
    for (const name of ["overlap", "chance", "majority", "probability", "tokencos", "embeddings"]) expect(list.stdout).toMatch(new RegExp(`^${name}\\s`, "m"))
    expect(unknown.code).toBe(2)
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain("STS baseline")
  })

  it("majority with training data that has no entailment labels: a usage error naming the file, its line and the column expected (no crash)", async () => {
    const train = path.join(tmp, "SICK_unlabelled_train.txt")
    fs.writeFileSync(train, "pair_ID\tsentence_A\tsentence_B\n1\tA man sings\tA man is singing\n")
    const r = await runCli(["baseline", "majority", "--task", "sick2014", "--input", sickGold, "--train", train, "--out", path.join(tmp, "unlabelled")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${train}:1: majority needs training pairs with entailment labels: expected an entailment_judgment column (ENTAILMENT / CONTRADICTION / NEUTRAL)`)
  })

  it("majority with a training file that has the labels' column but no pair: a usage error naming the file and line (was exit 70, a RangeError)", async () => {
    const train = path.join(tmp, "SICK_empty_train.txt")
    fs.writeFileSync(train, "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n")
    const r = await runCli(["baseline", "majority", "--task", "sick2014", "--input", sickGold, "--train", train, "--out", path.join(tmp, "empty-train")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${train}:2: majority needs training pairs with entailment labels: expected a pair after the header, found none`)
    expect(r.stderr).not.toContain("internal error")
  })

  it("an edition file with two STS Benchmark datasets: a usage error saying its run has one (was exit 70, a RangeError)", async () => {
    const edition = path.join(tmp, "two-stsb.yaml")
    const stsb = (name: string) => `  - { name: ${name}, gold: sts-${name}.csv, format: stsb-csv, input: sts-${name}.csv, run: sts-${name}.output.txt, pairs: 2, language: en }`
    fs.writeFileSync(edition, ["extends: stsb", "id: two-stsb", "submission: folder", "datasets:", stsb("test"), stsb("dev"), ""].join("\n"))
    const input = path.join(tmp, "two-stsb-test.csv")
    fs.writeFileSync(input, "main-captions\tMSRvid\t2012test\t0001\t5.000\tup\tdown\nmain-captions\tMSRvid\t2012test\t0002\t4.000\tup\tup\n")
    const r = await runCli(["baseline", "tokencos", "--task", edition, "--input", input, "--out", path.join(tmp, "two-stsb")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("two-stsb: an STS Benchmark run is one file of scores, for one dataset; 2 datasets of this edition (test, dev) read STS Benchmark input")
    expect(fs.existsSync(path.join(tmp, "two-stsb"))).toBe(false)
  })

  it("embeddings --format glue with a negative cosine: a usage error naming the pair and the range GLUE takes (no crash)", async () => {
    const input = path.join(tmp, "sts-test.csv")
    fs.writeFileSync(input, "main-captions\tMSRvid\t2012test\t0001\t5.000\tup\tdown\nmain-captions\tMSRvid\t2012test\t0002\t4.000\tup\tup\n")
    const vectors = path.join(tmp, "vectors.txt")
    fs.writeFileSync(vectors, "up 1 0\ndown -1 0\n")
    const r = await runCli(["baseline", "embeddings", "--task", "stsb", "--input", input, "--vectors", vectors, "--format", "glue", "--out", path.join(tmp, "glue-negative")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`--format glue: GLUE's STS-B.tsv takes predictions from 0 to 5; embeddings scored pair 1 (${input}:1) -1: write the run with --format stseval`)
    expect(fs.existsSync(path.join(tmp, "glue-negative"))).toBe(false)
  })

  it("overlap writes the organisers' run (same labels and scores as the released file) and --score gives its official figures", async () => {
    const out = path.join(tmp, "overlap")
    const r = await runCli(["baseline", "overlap", "--task", "sick2014", "--input", sickGold, "--out", out, "--score"])
    expect(r.code).toBe(0)
    const written = path.join(out, "overlap_run1primary.txt")
    const ours = runOf(written)
    const released = runOf(overlap)
    expect(ours.size).toBe(released.size)
    for (const [id, [score, label]] of released) expect(ours.get(id)).toEqual([score, label])
    // the official R scorer on the released baseline: r 0.627010732001107, accuracy 56.1599350517556%
    expect(r.stdout).toMatch(/pearson 0\.627\b/)
    expect(r.stdout).toContain("56.16%")
    // and the written run goes through `score` like any submission
    const scored = await runCli(["score", "--task", "sick2014", "--gold", sickGold, written, "--json"])
    const run = (JSON.parse(scored.stdout) as { runs: Array<{ datasets: { relatedness: { figures: { pearson: number; mse: number } }; entailment: { figures: { accuracy: number } } } }> }).runs[0]
    expect(run.datasets.relatedness.figures.pearson).toBeCloseTo(0.627010732001107, 12)
    expect(run.datasets.relatedness.figures.mse).toBeCloseTo(10.0092930264519, 10)
    expect(run.datasets.entailment.figures.accuracy).toBeCloseTo(56.1599350517556, 10)
  })
})

describe.skipIf(!hasShared)("stseval baseline majority (training labels from ../shared)", () => {
  it("labels every test pair NEUTRAL, the commonest training label: 56.7% as published", async () => {
    const out = path.join(tmp, "majority")
    const r = await runCli([
      "baseline", "majority", "--task", "sick2014", "--input", sickGold, "--train", path.join(shared, "data/sick2014/SICK_train.txt"), "--out", out, "--score"
    ])
    expect(r.code).toBe(0)
    const labels = new Set([...runOf(path.join(out, "majority_run1primary.txt")).values()].map(([, label]) => label))
    expect([...labels]).toEqual(["NEUTRAL"])
    const neutral = [...gold.values()].filter(([, label]) => label === "NEUTRAL").length
    expect(r.stdout).toContain(`${((100 * neutral) / gold.size).toFixed(2)}%`)
    expect((100 * neutral) / gold.size).toBeCloseTo(56.7, 1)
  })
})
if (!hasShared) console.warn("apps/cli: ../shared is absent; the majority-baseline test (needs SICK_train.txt) is skipped")

// ---- report -----------------------------------------------------------------------------------

describe("stseval report (shipped SICK submissions folder)", () => {
  it("Markdown: the relatedness table ranks the primary runs by r, the baseline in its own section", async () => {
    const r = await runCli(["report", "--task", "sick2014", "--gold", sickGold, submissions, "--format", "md"])
    expect(r.code).toBe(0)
    const rows = r.stdout.split("\n").filter((l) => l.startsWith("| ") && /\d/.test(l))
    const firstTable = rows.slice(0, 3).map((l) => l.split("|")[1].trim())
    // the runs are named by their ids, as rank and watch name them
    expect(firstTable).toEqual(["MeaningFactory/run1", "Insight/run1", "Baseline-overlap/run1"])
    expect(r.stdout).toContain("**Baselines**")
    expect(r.stdout).toContain("Williams' t")
    // the failed run and the non-primary runs are not in the paper's tables
    expect(r.stdout).not.toContain("run2")
  })

  it("JSON: one stseval/report@2 document whose cells hold the official R scorer's figures", async () => {
    const out = path.join(tmp, "report.json")
    const r = await runCli(["report", "--task", "sick2014", "--gold", sickGold, submissions, "--format", "json", "--out", out])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain(`wrote ${out}`)
    type Cell = { value?: number | null; display: string }
    const doc = JSON.parse(fs.readFileSync(out, "utf8")) as {
      format: string
      tables: Array<{ id: string; sections: Array<{ rows: Array<{ id: string; cells: Record<string, Cell> }> }> }>
    }
    expect(doc.format).toBe("stseval/report@2")
    expect(doc.tables.map((t) => t.id)).toEqual(["sick2014-table7", "sick2014-table6"])
    const rowOf = (table: string, id: string) =>
      doc.tables.find((t) => t.id === table)!.sections.flatMap((s) => s.rows).find((x) => x.id === id)!
    // ../shared/reference/sick-posttask-runs.official-R.tsv, The Meaning Factory's submission
    const mf = rowOf("sick2014-table7", "MeaningFactory/run1").cells
    expect(mf.pearson.value).toBeCloseTo(0.826381603887488, 12)
    expect(mf.spearman.value).toBeCloseTo(0.771423487071558, 12)
    expect(mf.mse.value).toBeCloseTo(0.323404337327026, 12)
    expect(rowOf("sick2014-table6", "MeaningFactory/run1").cells.accuracy.display).toContain("79.643")
  })

  it("LaTeX: booktabs tables with caption and label", async () => {
    const r = await runCli(["report", "--task", "sick2014", "--gold", sickGold, submissions, "--format", "latex"])
    expect(r.code).toBe(0)
    expect(r.stdout.match(/\\begin\{table\}/g)).toHaveLength(2)
    expect(r.stdout).toContain("\\toprule")
    expect(r.stdout).toContain("\\label{tab:sick-relatedness}")
    expect(r.stdout).toContain("Accuracy (\\%)")
  })
})

// ---- watch --once -------------------------------------------------------------------------------

describe("stseval watch --once (shipped SICK submissions folder)", () => {
  it("writes the leaderboard and statuses; the failed run is listed with its errors and never ranked; the scores equal `rank`", async () => {
    const out = path.join(tmp, "watch")
    const r = await runCli(["watch", "--task", "sick2014", "--gold", sickGold, submissions, "--out", out, "--once"])
    expect(r.code).toBe(0)
    for (const f of ["leaderboard.json", "leaderboard.md", "leaderboard.html", "status.json"]) expect(fs.existsSync(path.join(out, f))).toBe(true)
    type Entry = { rank: number | null; id: string; value: number | null }
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as {
      rankings: Array<{ ranking: string; entries: Array<Entry> }>
      runs: Array<{ id: string; status: string; errors: Array<{ code: string; line?: number }> }>
    }
    const failed = board.runs.find((x) => x.id === "Insight/run2")!
    expect(failed.status).toBe("failed")
    expect(failed.errors[0]).toMatchObject({ code: "field-count", line: 2 })
    for (const ranking of board.rankings) expect(ranking.entries.find((e) => e.id === "Insight/run2")?.rank ?? null).toBeNull()

    const ranked = await runCli(["rank", "--all-runs", "--task", "sick2014", "--gold", sickGold, submissions, "--json"])
    const rank = JSON.parse(ranked.stdout) as { rankings: { rankings: Array<{ ranking: string; entries: Array<Entry> }> } }
    for (const ranking of rank.rankings.rankings) {
      const live = board.rankings.find((x) => x.ranking === ranking.ranking)!
      const byId = (entries: Array<Entry>) => Object.fromEntries(entries.map((e) => [e.id, [e.rank, e.value]]))
      expect(byId(live.entries)).toEqual(byId(ranking.entries))
    }

    // a second --once takes every run from the cache
    const again = await runCli(["watch", "--task", "sick2014", "--gold", sickGold, submissions, "--out", out, "--once"])
    expect(again.code).toBe(0)
    expect(again.stdout + again.stderr).toContain("0 scored now, 5 from the cache")
  })
})

// ---- one run identity, one order ----------------------------------------------------------------

describe("rank --json, report --format json and watch --once name the same runs, with the same ids, in the same order", () => {
  it("on one folder with runs named foo.txt and Team-Name.txt (no team_runN name), a failed run and a tie", async () => {
    const folder = path.join(tmp, "identity")
    fs.mkdirSync(folder, { recursive: true })
    for (const name of ["MeaningFactory_run1primary.txt", "Insight_run1primary.txt", "Insight_run2.txt"]) fs.copyFileSync(runFile(name), path.join(folder, name))
    fs.copyFileSync(runFile("MeaningFactory_run2.txt"), path.join(folder, "foo.txt"))
    // the same scores as Insight/run1: a tie, broken by team in code-point order
    fs.copyFileSync(insight, path.join(folder, "Team-Name.txt"))
    backdate(folder)
    const sick = ["--task", "sick2014", "--gold", sickGold]

    const ranked = await runCli(["rank", ...sick, folder, "--all-runs", "--json"])
    expect(ranked.code, ranked.stderr).toBe(0)
    const rank = JSON.parse(ranked.stdout) as {
      signature: { text: string }
      rankings: { rankings: Array<{ ranking: string; entries: Array<{ id: string; rank: number | null; postDeadline: boolean; late: boolean; corrected: boolean }> }> }
    }
    const relatedness = rank.rankings.rankings.find((r) => r.ranking === "relatedness")!.entries
    // foo (The Meaning Factory's run 2) took no part in relatedness and Insight/run2 failed: both
    // listed unranked, in run order (team, run number, id)
    const expected = ["MeaningFactory/run1", "Insight/run1", "Team-Name", "Insight/run2", "foo"]
    expect(relatedness.map((e) => e.id)).toEqual(expected)
    expect(relatedness.map((e) => e.rank)).toEqual([1, 2, 2, null, null])
    for (const e of relatedness) expect(e).toMatchObject({ late: false, corrected: false, postDeadline: false })
    expect(rank.signature.text).toMatch(/^sick2014@[0-9a-f]{8}\|gold:[0-9a-f]{8}\|agg:single\|stseval-scoring@/)

    const reported = await runCli(["report", ...sick, folder, "--all-runs", "--layout", "sick2014-table7", "--format", "json"])
    expect(reported.code, reported.stderr).toBe(0)
    const report = JSON.parse(reported.stdout) as { signature: string; tables: Array<{ footnotes: Array<string>; sections: Array<{ rows: Array<{ id: string; postDeadline: boolean }> }> }> }
    const rows = report.tables[0].sections.flatMap((s) => s.rows)
    expect(rows.map((r) => r.id)).toEqual(expected)
    for (const r of rows) expect(r.postDeadline).toBe(false)
    expect(report.signature).toBe(rank.signature.text)
    expect(report.tables[0].footnotes).toContain(`Scored with ${rank.signature.text}.`)

    const out = path.join(tmp, "identity-board")
    const watched = await runCli(["watch", ...sick, folder, "--out", out, "--once"])
    expect(watched.code, watched.stderr).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as {
      signature: string
      rankings: Array<{ ranking: string; entries: Array<{ id: string; rank: number | null; postDeadline: boolean }> }>
    }
    const live = board.rankings.find((r) => r.ranking === "relatedness")!.entries
    expect(live.map((e) => e.id)).toEqual(expected)
    expect(live.map((e) => e.rank)).toEqual([1, 2, 2, null, null])
    expect(board.signature).toBe(rank.signature.text)
  })
})
