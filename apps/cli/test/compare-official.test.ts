/**
 * `compare` compares the edition's figures (issue 35): on an STS 2015-like edition (pair-weighted
 * mean, a missing dataset counted as 0) and an STS 2017-like one (plain mean, no official figure
 * without every track), built small here (the built-in editions' rules, three datasets of 60
 * synthetic pairs), a run missing a dataset gets its official figure as the ranking has it (checked
 * against the formula with an independent Pearson), no test of it (with the reason), and the
 * datasets both runs have are compared under a label that says they are not the official figure.
 * On the old code, `aggregate (weighted)` was the shared datasets' mean, under the official name.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { mulberry32 } from "@stseval/vitest-config/random"
import { pearson } from "@stseval/vitest-config/reference"
import { beforeAll, describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { runCli } from "./support/cli.js"

const tmp = scratchDir("compare-official")

const PAIRS = [60, 90, 120]
const next = mulberry32(2015)
const golds = PAIRS.map((n) => Array.from({ length: n }, () => Math.round(500 * next()) / 100))
// as written to the run files (4 decimals)
const noisy = (g: ReadonlyArray<number>, sd: number) => g.map((x) => Number((x + sd * Math.sqrt(12) * (next() - 0.5)).toFixed(4)))
// A: every dataset, middling; C: better on the first two, no file for the third
const A = golds.map((g) => noisy(g, 1.2))
const C = golds.slice(0, 2).map((g) => noisy(g, 0.4))
const rA = A.map((r, d) => pearson(golds[d], r))
const rC = C.map((r, d) => pearson(golds[d], r))

type Edition = Record<string, unknown> & { id: string; datasets: Array<{ name: string; gold: string; run: string; pairs: number }> }
const editions = new Map<string, string>()

beforeAll(async () => {
  const tasks = JSON.parse((await runCli(["tasks", "--json"])).stdout) as ReadonlyArray<Edition>
  for (const id of ["sts2015", "sts2017"]) {
    const base = tasks.find((e) => e.id === id)!
    const datasets = base.datasets.slice(0, 3).map((d, i) => ({ ...d, pairs: PAIRS[i] }))
    const edition = { ...base, id: `mini-${id}`, title: `${id}-like`, datasets, published: { style: "r3" }, data: undefined }
    const file = path.join(tmp, `${id}.json`)
    fs.writeFileSync(file, JSON.stringify(edition))
    editions.set(id, file)
    const goldDir = path.join(tmp, `gold-${id}`)
    fs.mkdirSync(goldDir)
    datasets.forEach((d, i) => fs.writeFileSync(path.join(goldDir, d.gold), golds[i].map((x) => `${x.toFixed(2)}\n`).join("")))
    for (const [name, run] of [["A_run1", A], ["C_run1", C]] as const) {
      const dir = path.join(tmp, `runs-${id}`, name)
      fs.mkdirSync(dir, { recursive: true })
      run.forEach((r, i) => fs.writeFileSync(path.join(dir, datasets[i].run), r.map((x) => `${x.toFixed(4)}\n`).join("")))
    }
  }
}, 60_000)

const args = (id: string) => ["--task", editions.get(id)!, "--gold", path.join(tmp, `gold-${id}`), path.join(tmp, `runs-${id}`, "A_run1"), path.join(tmp, `runs-${id}`, "C_run1")]

interface Doc {
  official: { ranking: string; rule: string; complete: boolean; a: { value: number | null; reason?: string; zeroed: Array<string> }; b: { value: number | null; reason?: string; zeroed: Array<string> }; reason?: string }
  aggregate?: unknown
  shared?: { dataset: string; pairs: number; comparison: { estimateA: number; estimateB: number } }
}

describe("compare gives the edition's official figures for a run missing a dataset", () => {
  it("STS 2015-like (weighted mean, missing = 0): C's official figure counts the missing dataset as 0; no test of it; the shared datasets say so", { timeout: 60_000 }, async () => {
    const r = await runCli(["compare", ...args("sts2015"), "--json", "--resamples", "500"])
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout) as Doc
    const total = PAIRS.reduce((a, b) => a + b, 0)
    const officialA = rA.reduce((s, x, d) => s + PAIRS[d] * x, 0) / total
    const officialC = (PAIRS[0] * rC[0] + PAIRS[1] * rC[1]) / total
    expect(doc.official.a.value).toBeCloseTo(officialA, 12)
    expect(doc.official.b.value).toBeCloseTo(officialC, 12)
    expect(doc.official.b.zeroed).toEqual([doc.official.b.zeroed[0]])
    expect(doc.official).toMatchObject({ ranking: "official", rule: "weighted", complete: false })
    expect(doc.official.reason).toMatch(/entered its official figure as 0/)
    // A is ranked above C officially: the shared datasets' comparison is not under the official name
    expect(officialA).toBeGreaterThan(officialC)
    expect(doc.aggregate).toBeUndefined()
    expect(doc.shared!.dataset).toBe("shared 2 of 3 datasets (weighted)")
    expect(doc.shared!.comparison.estimateB).toBeCloseTo((PAIRS[0] * rC[0] + PAIRS[1] * rC[1]) / (PAIRS[0] + PAIRS[1]), 12)

    const text = await runCli(["compare", ...args("sts2015"), "--resamples", "500"])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain("shared 2 of 3 datasets (weighted): not the official figure")
    expect(text.stdout).toMatch(new RegExp(`official \\(weighted, 3 datasets\\): A ${officialA.toFixed(3)}, B ${officialC.toFixed(3)} \\(\\S+ entered as 0\\)`))
    expect(text.stdout).not.toMatch(/^aggregate/m)
  })

  it("STS 2017-like (plain mean, no official figure without every track): C has none, with the reason; A's is the mean of all three", { timeout: 60_000 }, async () => {
    const r = await runCli(["compare", ...args("sts2017"), "--json", "--resamples", "500"])
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout) as Doc
    expect(doc.official.a.value).toBeCloseTo((rA[0] + rA[1] + rA[2]) / 3, 12)
    expect(doc.official.b.value).toBeNull()
    expect(doc.official.b.reason).toBeDefined()
    expect(doc.official).toMatchObject({ rule: "unweighted", complete: false })
    expect(doc.official.reason).toMatch(/no official figure/)
    expect(doc.aggregate).toBeUndefined()
    expect(doc.shared!.dataset).toBe("shared 2 of 3 datasets (unweighted)")
    const text = await runCli(["compare", ...args("sts2017"), "--resamples", "500"])
    expect(text.stdout).toMatch(/official \(unweighted, 3 datasets\): A \d\.\d{3}, B none \(/)
  })

  it("both runs complete: the aggregate row is the official figure, tested", { timeout: 60_000 }, async () => {
    const a = path.join(tmp, "runs-sts2015", "A_run1")
    const copy = path.join(tmp, "runs-sts2015", "B_run1")
    fs.cpSync(a, copy, { recursive: true })
    const both = await runCli(["compare", "--task", editions.get("sts2015")!, "--gold", path.join(tmp, "gold-sts2015"), a, copy, "--json", "--resamples", "200"])
    expect(both.code, both.stderr).toBe(0)
    const doc = JSON.parse(both.stdout) as Doc & { aggregate: { dataset: string } }
    expect(doc.official.complete).toBe(true)
    expect(doc.aggregate.dataset).toBe("aggregate (weighted)")
    expect(doc.shared).toBeUndefined()
    const text = await runCli(["compare", "--task", editions.get("sts2015")!, "--gold", path.join(tmp, "gold-sts2015"), a, copy, "--resamples", "200"])
    expect(text.stdout).toMatch(/^official \(weighted\)\s/m)
  })
})
