/**
 * Against the official reference figures in ../shared/reference (skipped, with a warning, when
 * ../shared is absent): the official Perl scorer (5 decimals) and R (full precision) on the
 * synthetic STS runs; the official SICK R scorer on real post-task runs and the overlap baseline.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { beforeAll, describe, expect, it } from "vitest"
import type { ScoredRun } from "@stseval/scoring";
import { Engine, ResultJson } from "@stseval/scoring"
import { ds, hasShared, scoreDataset, sharedRoot, validateRun } from "./helpers.js"

const t6Meta = { id: "T/run1", team: "T", run: 1, primary: true, late: false, corrected: false, postDeadline: false }

if (!hasShared) console.warn(`scoring: ../shared not found at ${sharedRoot}: skipping the reference-figure tests (SharedData.test.ts)`)

const data = (p: string) => path.join(sharedRoot, "data", p)
const reference = (p: string) => path.join(sharedRoot, "reference", p)
const run = <A, E>(e: Effect.Effect<A, E, NodeServices.NodeServices>) => Effect.runPromise(e.pipe(Effect.provide(NodeServices.layer)))

const tsv = (file: string): Array<Record<string, string>> => {
  const [header, ...rows] = fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "")
  const cols = header.split("\t")
  return rows.map((r) => Object.fromEntries(r.split("\t").map((v, i) => [cols[i], v])))
}

const value = (m: { readonly _tag: string; readonly value?: number }) => {
  expect(m._tag).toBe("Defined")
  return m.value!
}

const EDITION: Record<string, string> = {
  sts2012: "sts2012",
  sts2013: "sts2013",
  sts2014: "sts2014",
  sts2015: "sts2015",
  sts2016: "sts2016",
  sts2017: "sts2017",
  stsbenchmark: "stsb"
}

describe.skipIf(!hasShared)("synthetic STS runs vs the official Perl scorer and R", () => {
  const rows = hasShared ? tsv(reference("sts-synthetic-runs.official.tsv")) : []
  const years = [...new Set(rows.map((r) => r.year))]
  const scored = new Map<string, ScoredRun.ScoredRun>()

  beforeAll(async () => {
    for (const year of years) {
      const first = rows.find((r) => r.year === year)!
      const runFolder = data(path.dirname(first.run_file))
      const goldFile = data(first.gold_file)
      const single = year === "stsbenchmark"
      const results = await run(
        Engine.score({
          task: EDITION[year],
          gold: single ? goldFile : path.dirname(goldFile),
          runs: [single ? data(first.run_file) : runFolder]
        })
      )
      expect(results.runs.length, year).toBe(1)
      scored.set(year, results.runs[0])
    }
  }, 120_000)

  it("covers every edition of the reference", () => {
    expect(years.sort()).toEqual(Object.keys(EDITION).sort())
    expect(rows.length).toBeGreaterThanOrEqual(30)
  })

  it("every dataset: Perl's 5 decimals, R's Pearson and Spearman within 1e-9, the scored pair count", () => {
    for (const row of rows) {
      const r = scored.get(row.year)!
      const name = row.year === "stsbenchmark" ? "test" : row.dataset
      const d = r.datasets.find((x) => x.dataset === name)
      expect(d, `${row.year} ${name}`).toBeDefined()
      expect(d!.status, `${row.year} ${name}: ${d!.reason}`).toBe("scored")
      expect(d!.pairs, `${row.year} ${name} pairs`).toBe(Number(row.scored_pairs))
      const p = value(d!.figures.pearson)
      expect(p.toFixed(5), `${row.year} ${name} Perl`).toBe(row.pearson_official_perl)
      expect(Math.abs(p - Number(row.pearson_R)), `${row.year} ${name} R pearson`).toBeLessThan(1e-9)
      expect(Math.abs(value(d!.figures.spearman) - Number(row.spearman_R)), `${row.year} ${name} R spearman`).toBeLessThan(1e-9)
    }
  })

  it("every synthetic run is complete, so every run has an official figure and no errors", () => {
    for (const [year, r] of scored) {
      expect(r.errors, year).toEqual([])
      expect(r.status).toBe("scored")
      expect(r.official[0].value._tag, year).toBe("Defined")
    }
  })

  it("2015/16: blank gold lines are skipped and counted", () => {
    const r = scored.get("sts2015")!
    const forums = r.datasets.find((d) => d.dataset === "answers-forums")!
    expect(forums.runLines).toBe(2000)
    expect(r.infos.find((i) => i.code === "not-annotated" && i.file.includes("answers-forums"))!.message).toMatch(
      /^375 of 2000 pairs annotated; 375 scored/
    )
  })

  it("2017 track 6: the 250-line run, and the same run padded to the input's 500 lines, score the same", () => {
    const r = scored.get("sts2017")!
    const t6 = r.datasets.find((d) => d.dataset === "track6.tr-en")!
    expect(t6.linesScored).toEqual([1, 250])
    const row = rows.find((x) => x.dataset === "track6.tr-en")!
    const text = fs.readFileSync(data(row.run_file), "utf8")
    const padded = text + Array.from({ length: 250 }, (_, i) => `${(i * 37) % 6}\n`).join("")
    return run(
      Effect.gen(function* () {
        const ctx = yield* Engine.loadContext({ task: "sts2017", gold: data("sts2017/gold") })
        const spec = ctx.edition.datasets.find((d) => d.name === "track6.tr-en")!
        const submission = { meta: t6Meta, path: "run", kind: "folder" as const, issues: [], files: [{ name: spec.run, path: `run/${spec.run}`, bytes: new TextEncoder().encode(padded) }] }
        const check = validateRun(ctx.edition, ctx.gold, submission).datasets.find((d) => d.dataset === spec.name)!
        expect(check.runLines).toBe(500)
        const s = scoreDataset(ctx.edition, check)
        expect(Math.abs(value(s.figures.pearson) - Number(row.pearson_R))).toBeLessThan(1e-9)
        expect(s.linesScored).toEqual([1, 250])
      })
    )
  })
})

describe.skipIf(!hasShared)("SICK post-task runs vs the official R scorer", () => {
  const rows = hasShared ? tsv(reference("sick-posttask-runs.official-R.tsv")) : []
  const results = new Map<string, ScoredRun.ScoredRun>()
  const goldPath = data("sick2014/SICK_test_annotated.txt")

  beforeAll(async () => {
    const scored = await run(Engine.score({ task: "sick2014", gold: goldPath, runs: rows.map((r) => data(r.run)) }))
    rows.forEach((r, i) => results.set(r.run, scored.runs[i]))
  }, 120_000)

  it("well-formed runs: accuracy, r, rho and MSE within 1e-9 of R", () => {
    let checked = 0
    for (const row of rows) {
      const file = path.basename(row.run)
      if (file.endsWith("-raw.txt") || file === "newsick.run") continue
      const r = results.get(row.run)!
      expect(ds(r, "relatedness").status, file).toBe("scored")
      expect(Math.abs(value(ds(r, "relatedness").figures.pearson) - Number(row.pearson)), `${file} r`).toBeLessThan(1e-9)
      expect(Math.abs(value(ds(r, "relatedness").figures.spearman) - Number(row.spearman)), `${file} rho`).toBeLessThan(1e-9)
      expect(Math.abs(value(ds(r, "relatedness").figures.mse) - Number(row.mse)), `${file} mse`).toBeLessThan(1e-9)
      if (row.accuracy_pct === "NA") {
        expect(ds(r, "entailment").status, file).toBe("not-scored")
        expect(ds(r, "entailment").reason, file).toMatch(/NA/)
      } else {
        expect(Math.abs(value(ds(r, "entailment").figures.accuracy) - Number(row.accuracy_pct)), `${file} accuracy`).toBeLessThan(1e-9)
      }
      checked++
    }
    expect(checked).toBe(12)
  })

  it("submission.txt: both subtasks", () => {
    const r = [...results.entries()].find(([k]) => k.endsWith("submission.txt"))![1]
    expect(ds(r, "relatedness").status).toBe("scored")
    expect(ds(r, "entailment").status).toBe("scored")
    expect(r.errors).toEqual([])
  })

  it("*-raw.txt (a 4th unnamed column): reported malformed with the line, not scored", () => {
    const raws = rows.filter((r) => r.run.endsWith("-raw.txt"))
    expect(raws.length).toBe(5)
    for (const row of raws) {
      const r = results.get(row.run)!
      const fc = r.errors.find((i) => i.code === "field-count")!
      expect(fc.line, row.run).toBe(2)
      expect(ds(r, "relatedness").status).toBe("not-scored")
      expect(ds(r, "relatedness").reason).toMatch(/^the file is malformed: line 2 has 4 fields/)
      expect(ds(r, "entailment").status).toBe("not-scored")
      expect(r.status).toBe("failed")
    }
  })

  it("newsick.run (no header): an error naming the header line to add, as R gave it no score; --lenient scores its entailment", async () => {
    const row = rows.find((r) => r.run.endsWith("newsick.run"))!
    // R: `Error in order(score$pair_ID)`, no figures
    expect(row.accuracy_pct).toBe("NA")
    const strict = results.get(row.run)!
    expect(strict.status).toBe("failed")
    expect(strict.errors.find((i) => i.code === "missing-header")!.message).toContain("pair_ID<TAB>entailment_judgment")
    const lenient = await run(Engine.score({ task: "sick2014", gold: goldPath, runs: [data(row.run)], lenient: true }))
    const r = lenient.runs[0]
    expect(r.warnings.map((i) => i.code)).toContain("missing-header")
    expect(ds(r, "relatedness").status).toBe("not-scored")
    expect(ds(r, "entailment").status).toBe("scored")
    // independent check: join the run's lines to the gold by pair_ID by hand
    const gold = new Map<string, string>()
    for (const line of fs.readFileSync(goldPath, "utf8").split(/\r?\n/).slice(1)) {
      const f = line.split("\t")
      if (f.length >= 5) gold.set(f[0], f[4])
    }
    let correct = 0
    let total = 0
    for (const line of fs.readFileSync(data(row.run), "utf8").split(/\r?\n/)) {
      const [id, label] = line.split("\t")
      if (id === undefined || id === "") continue
      total++
      if (gold.get(id) === label) correct++
    }
    expect(total).toBe(4927)
    expect(value(ds(r, "entailment").figures.accuracy)).toBeCloseTo((100 * correct) / total, 12)
    expect(ds(r, "entailment").labels!.correct).toBe(correct)
  })
})

describe.skipIf(!hasShared)("SICK overlap baseline vs the official R scorer", () => {
  it("scores to the published figures (r 0.627011, 56.160%) within 1e-9", async () => {
    const text = fs.readFileSync(reference("sick-test.overlap-baseline.official-R.txt"), "utf8")
    const figure = (re: RegExp) => Number(re.exec(text)![1])
    const results = await run(
      Engine.score({
        task: "sick2014",
        gold: data("sick2014/SICK_test_annotated.txt"),
        runs: [reference("sick-test.overlap-baseline.txt")]
      })
    )
    const r = results.runs[0]
    expect(Math.abs(value(ds(r, "entailment").figures.accuracy) - figure(/accuracy ([\d.]+)%/))).toBeLessThan(1e-9)
    expect(Math.abs(value(ds(r, "relatedness").figures.pearson) - figure(/Pearson correlation ([\d.]+)/))).toBeLessThan(1e-9)
    expect(Math.abs(value(ds(r, "relatedness").figures.spearman) - figure(/Spearman correlation ([\d.]+)/))).toBeLessThan(1e-9)
    expect(Math.abs(value(ds(r, "relatedness").figures.mse) - figure(/MSE ([\d.]+)/))).toBeLessThan(1e-9)
    // overlap ratios (0-1) are outside the 1-5 relatedness scale: a warning, not an error
    expect(r.warnings.map((i) => i.code)).toContain("out-of-scale")
    expect(ResultJson.toJson(r).datasets["relatedness"].figures["pearson"]).toBe(value(ds(r, "relatedness").figures.pearson))
  })
})
