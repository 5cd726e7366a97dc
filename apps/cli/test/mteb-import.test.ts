/**
 * `import mteb` checks the order of MTEB's predictions (issue 24): with MTEB's results file
 * (`<task>.json`) beside them, the import reproduces MTEB's own cosine Spearman against our gold or
 * refuses; without it, it says the order could not be checked; it names MTEB's main score beside
 * the edition's official figure. Fixtures: `fixtures/mteb/make_stsb.py` writes a synthetic model's
 * predictions on the STS Benchmark test gold of ../shared as MTEB writes them, MTEB's results file
 * from SciPy's figures, and `reference.json` (SciPy: the official Pearson, the shuffled Spearman).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { hasShared, runCli, shared } from "./support/cli.js"

const fixtures = path.join(import.meta.dirname, "fixtures/mteb")
const reference = JSON.parse(fs.readFileSync(path.join(fixtures, "reference.json"), "utf8")) as {
  cosine_spearman: number
  pearson_raw_gold: number
  spearman_shuffled: number
}
const tmp = scratchDir("mteb-import")
const gold = path.join(shared, "data/stsbenchmark")
const args = (from: string, out: string) => ["import", "mteb", from, "--task", "stsb", "--gold", gold, "--out", out]

describe.skipIf(!hasShared)("import mteb: the order of the predictions", () => {
  it("with MTEB's results file: MTEB's cosine Spearman reproduced, and stsb's official Pearson named beside it", async () => {
    const out = path.join(tmp, "ok")
    const r = await runCli(args(path.join(fixtures, "stsb"), out))
    expect(r.stderr).toBe("")
    expect(r.code).toBe(0)
    const line = r.stdout.split("\n").find((l) => l.trim().startsWith("test:"))!
    expect(line).toContain(`MTEB's cosine_spearman ${reference.cosine_spearman.toFixed(6)}`)
    expect(line).toContain(`against our gold: Spearman ${reference.cosine_spearman.toFixed(4)}`)
    expect(line).toContain(`stsb's official figure is Pearson ${reference.pearson_raw_gold.toFixed(4)}`)
    expect(line).toContain("order checked (MTEB's figure reproduced)")
    // and the run written scores that Pearson
    const scored = await runCli(["score", "--task", "stsb", "--gold", gold, "--json", path.join(out, "synthetic_stsb-model")])
    const doc = JSON.parse(scored.stdout) as { runs: Array<{ datasets: Record<string, { figures: { pearson: number } }> }> }
    expect(doc.runs[0].datasets["test"].figures.pearson).toBeCloseTo(reference.pearson_raw_gold, 12)
  })

  it("a shuffled predictions file beside MTEB's results is refused (exit 1), nothing written", async () => {
    const out = path.join(tmp, "shuffled")
    const r = await runCli(args(path.join(fixtures, "stsb-shuffled"), out))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`these predictions give a Spearman of ${reference.spearman_shuffled.toFixed(6)}`)
    expect(r.stderr).toContain(`records cosine_spearman ${reference.cosine_spearman.toFixed(6)}`)
    expect(r.stderr).toContain("not in the gold's order")
    expect(fs.existsSync(path.join(out, "synthetic_stsb-model"))).toBe(false)
  })

  it("without MTEB's results file: imported, saying the order could not be checked", async () => {
    const lone = path.join(tmp, "lone")
    fs.mkdirSync(lone)
    fs.copyFileSync(path.join(fixtures, "stsb-shuffled/STSBenchmark_predictions.json"), path.join(lone, "STSBenchmark_predictions.json"))
    const r = await runCli(args(lone, path.join(tmp, "lone-out")))
    expect(r.code).toBe(0)
    expect(r.stderr).toContain("the order could not be checked (MTEB's results file")
    expect(r.stderr).toContain("is not beside the predictions)")
    expect(r.stdout).toContain("order not checked")
  })
})
