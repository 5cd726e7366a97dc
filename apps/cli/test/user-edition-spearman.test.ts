/**
 * A user edition ranked by Spearman: STS 2015 as `stseval tasks --json` prints it, saved as the
 * user's own edition file with the ranking metric changed to `spearman`. Its official figure is the
 * pair-weighted mean of per-dataset Spearman (checked against a Spearman computed here from the
 * files: average ranks for ties, Pearson of the ranks), and every interval `rank --ci 95` gives,
 * the official figure's included, is of Spearman: it contains its estimate. On the old code the
 * official figure's interval was the Pearson mean's and did not contain it.
 *
 * Needs STS 2015's gold and runs in ../shared; skipped (and said so) without them.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { spearman } from "@stseval/vitest-config/reference"
import { hasShared, runCli, shared } from "./support/cli.js"

const gold = path.join(shared, "data/sts2015/test")
const synthetic = path.join(shared, "data/runs/sts-synthetic/sts2015")
const available = hasShared && fs.existsSync(gold) && fs.existsSync(synthetic)
if (!available) console.warn("user-edition-spearman.test.ts: skipped: STS 2015 gold and runs not found in ../shared")

const tmp = scratchDir("user-spearman")

const lines = (file: string) => fs.readFileSync(file, "utf8").replace(/\n$/, "").split("\n")

describe.skipIf(!available)("a user edition ranked by Spearman (STS 2015 with metric: spearman)", () => {
  it("rank --ci 95: the official figure is the weighted mean of Spearman, and every interval contains its estimate", { timeout: 120_000 }, async () => {
    const tasks = await runCli(["tasks", "--json"])
    expect(tasks.code, tasks.stderr).toBe(0)
    const sts2015 = (JSON.parse(tasks.stdout) as ReadonlyArray<{ id: string; ranking: Array<{ metric: string }>; datasets: ReadonlyArray<{ name: string; gold: string; run: string; pairs: number }> }>).find((e) => e.id === "sts2015")!
    const edition = { ...sts2015, id: "my-sts2015", title: "STS 2015 ranked by Spearman", ranking: sts2015.ranking.map((r) => ({ ...r, metric: "spearman" })) }
    const editionFile = path.join(tmp, "my-sts2015.json")
    fs.writeFileSync(editionFile, JSON.stringify(edition, null, 2))

    // two runs: the synthetic run as shipped, and the same with a deterministic perturbation
    const runs = path.join(tmp, "runs")
    fs.cpSync(synthetic, path.join(runs, "Alpha_run1"), { recursive: true })
    fs.mkdirSync(path.join(runs, "Beta_run1"))
    for (const d of edition.datasets) {
      const values = lines(path.join(synthetic, d.run)).map((l, i) => (Number(l.split("\t")[0]) + (((i * 7919) % 13) - 6) / 5).toFixed(4))
      fs.writeFileSync(path.join(runs, "Beta_run1", d.run), values.join("\n") + "\n")
    }

    // the expected official figures: Spearman over the annotated pairs (a blank gold line is skipped), weighted by pairs
    const expected = new Map<string, number>()
    for (const team of ["Alpha", "Beta"]) {
      let sum = 0
      let pairs = 0
      for (const d of edition.datasets) {
        const g = lines(path.join(gold, d.gold))
        const r = lines(path.join(runs, `${team}_run1`, d.run))
        const keep = g.map((_, i) => i).filter((i) => g[i].trim() !== "")
        const rho = spearman(keep.map((i) => Number(g[i])), keep.map((i) => Number(r[i].split("\t")[0])))
        sum += rho * keep.length
        pairs += keep.length
      }
      expected.set(`${team}/run1`, sum / pairs)
    }

    const rank = await runCli(["rank", "--task", editionFile, "--gold", gold, runs, "--ci", "95", "--resamples", "200", "--json"])
    expect(rank.code, rank.stderr).toBe(0)
    const doc = JSON.parse(rank.stdout) as {
      rankings: { rankings: ReadonlyArray<{ metric: string; entries: ReadonlyArray<{ id: string; rank: number | null; value: number; ci: { low: number; high: number } }> }> }
      runs: ReadonlyArray<{ datasets: Record<string, { figures?: Record<string, { value: number | null; ci?: { low: number; high: number } }> }> }>
    }
    const ranking = doc.rankings.rankings[0]
    expect(ranking.metric).toBe("spearman")
    for (const e of ranking.entries) {
      expect(e.value, e.id).toBeCloseTo(expected.get(e.id)!, 10)
      expect(e.ci.low, `${e.id}: low`).toBeLessThanOrEqual(e.value)
      expect(e.ci.high, `${e.id}: high`).toBeGreaterThanOrEqual(e.value)
    }
    for (const run of doc.runs) {
      for (const d of Object.values(run.datasets)) {
        for (const f of Object.values(d.figures ?? {})) {
          if (f.value === null || f.ci === undefined) continue
          expect(f.ci.low).toBeLessThanOrEqual(f.value)
          expect(f.ci.high).toBeGreaterThanOrEqual(f.value)
        }
      }
    }
  })
})
