/**
 * Intervals on SICK (issue 24): MSE, reported beside Pearson, gets an interval in `score`, `rank`
 * and `report` alike, checked against an independent NumPy bootstrap of MSE (20,000 resamples:
 * [0.30972827409538456, 0.33722133509075747] for MeaningFactory's primary run; bootstrap SD
 * 0.0070, so 1,000 resamples put each bound within about 0.0006 of it: tolerance 0.003). And an
 * interval on fewer than 100 pairs is marked ‡ in text, with a note saying why; SICK's 4,927 are not.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { examples, runCli } from "./support/cli.js"

const NUMPY_MSE = 0.3234043373270261
const NUMPY_MSE_CI = [0.30972827409538456, 0.33722133509075747] as const
const TOLERANCE = 0.003

const gold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const tmp = scratchDir("sick-ci")
const subs = path.join(tmp, "subs")
fs.mkdirSync(subs)
fs.copyFileSync(path.join(examples, "sick2014/submissions/MeaningFactory_run1primary.txt"), path.join(subs, "MeaningFactory_run1primary.txt"))
const common = ["--task", "sick2014", "--gold", gold, "--ci", "95"]

interface Ci {
  readonly low: number
  readonly high: number
  readonly fewPairs?: number
}
const expectNumpy = (ci: Ci | undefined) => {
  expect(ci).toBeDefined()
  expect(Math.abs(ci!.low - NUMPY_MSE_CI[0])).toBeLessThan(TOLERANCE)
  expect(Math.abs(ci!.high - NUMPY_MSE_CI[1])).toBeLessThan(TOLERANCE)
  expect(ci!.fewPairs).toBeUndefined()
}

describe("SICK's MSE has an interval in every command", () => {
  it("score --json", async () => {
    const r = await runCli(["score", ...common, "--json", path.join(subs, "MeaningFactory_run1primary.txt")])
    expect(r.code, r.stderr).toBe(0)
    const mse = (JSON.parse(r.stdout) as { runs: Array<{ datasets: Record<string, { figures: Record<string, { value: number; ci?: Ci }> }> }> }).runs[0].datasets["relatedness"].figures["mse"]
    expect(mse.value).toBeCloseTo(NUMPY_MSE, 12)
    expectNumpy(mse.ci)
  })

  it("rank --json", async () => {
    const r = await runCli(["rank", ...common, "--json", subs])
    expect(r.code, r.stderr).toBe(0)
    const mse = (JSON.parse(r.stdout) as { runs: Array<{ datasets: Record<string, { figures: Record<string, { value: number; ci?: Ci }> }> }> }).runs[0].datasets["relatedness"].figures["mse"]
    expectNumpy(mse.ci)
  })

  it("report --format json: the MSE cell of Table 7", async () => {
    const r = await runCli(["report", ...common, "--format", "json", subs])
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout) as { tables: Array<{ sections: Array<{ rows: Array<{ id: string; cells: Record<string, { value?: number; ci?: Ci }> }> }> }> }
    const cells = doc.tables.flatMap((t) => t.sections.flatMap((s) => s.rows)).map((row) => row.cells["mse"]).filter((c) => c?.value !== undefined)
    expect(cells.length).toBeGreaterThan(0)
    expectNumpy(cells[0].ci)
  })
})

describe("intervals on fewer than 100 pairs are marked", () => {
  it("score (text): ‡ after each interval of a 60-pair SICK gold, and the note; none on 4,927 pairs", async () => {
    const lines = fs.readFileSync(gold, "utf8").split("\n")
    const ids = new Set(lines.slice(1, 61).map((l) => l.split("\t")[0]))
    const small = path.join(tmp, "small-gold.txt")
    fs.writeFileSync(small, `${lines.slice(0, 61).join("\n")}\n`)
    const runLines = fs.readFileSync(path.join(subs, "MeaningFactory_run1primary.txt"), "utf8").split("\n")
    const run = path.join(tmp, "Small_run1primary.txt")
    fs.writeFileSync(run, `${[runLines[0], ...runLines.slice(1).filter((l) => ids.has(l.split("\t")[0]))].join("\n")}\n`)
    const r = await runCli(["score", "--task", "sick2014", "--gold", small, "--ci", "95", run])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/pearson \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]‡/)
    // one note per metric, true of it (issue 35): Pearson's under-cover, Spearman's over-cover, MSE's not measured
    expect(r.stdout).toContain("‡ Pearson, an interval on fewer than 100 pairs: percentile intervals of Pearson's r hold the true value less often")
    expect(r.stdout).toContain("‡ Spearman, an interval on fewer than 100 pairs: percentile intervals of Spearman's rho hold the true value more often")
    expect(r.stdout).toContain("‡ MSE, an interval on fewer than 100 pairs: percentile intervals of it were not measured")
    const big = await runCli(["score", ...common, path.join(subs, "MeaningFactory_run1primary.txt")])
    expect(big.stdout).toMatch(/pearson \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]/)
    expect(big.stdout).not.toContain("‡")
  })
})
