import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { examples, hasShared, runCli, shared } from "./support/cli.js"

const sickGold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const submissions = path.join(examples, "sick2014/submissions")

interface ValidationJson {
  valid: boolean
  runs: Array<{ id: string; status: string; parts: Array<{ name: string; status: string; pairs: number }>; errors: Array<{ code: string; line?: number }>; warnings: Array<{ code: string }> }>
}

describe("stseval validate (shipped SICK runs)", () => {
  it("gives each real run the verdict an organiser would, and exits 1 because one run is malformed", async () => {
    const r = await runCli(["validate", "--task", "sick2014", "--gold", sickGold, submissions, "--json"])
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout) as ValidationJson
    expect(out.valid).toBe(false)
    const run = (id: string) => out.runs.find((x) => x.id === id)!
    const part = (id: string, name: string) => run(id).parts.find((p) => p.name === name)!
    // the *-raw file: a 4th unnamed column on every row -> malformed, with the line
    expect(run("Insight/run2").status).toBe("failed")
    expect(run("Insight/run2").errors[0]).toMatchObject({ code: "field-count", line: 2 })
    // newsick.run: no header, which the official R scorer rejects (no score): an error by default
    expect(run("MeaningFactory/run2").status).toBe("failed")
    expect(run("MeaningFactory/run2").errors.map((w) => w.code)).toContain("missing-header")
    // NA entailment column: that subtask is not evaluated, relatedness still is
    expect(part("Insight/run1", "entailment").status).not.toBe("scored")
    expect(part("Insight/run1", "relatedness")).toMatchObject({ status: "scored", pairs: 4927 })
    expect(run("MeaningFactory/run1").status).toBe("valid")
  })

  it("--lenient scores a headerless run's entailment, with a warning that names the header", async () => {
    const newsick = path.join(submissions, "MeaningFactory_run2.txt")
    const strict = await runCli(["score", "--task", "sick2014", "--gold", sickGold, newsick])
    expect(strict.code).toBe(1)
    expect(strict.stdout).toContain("pair_ID<TAB>entailment_judgment")
    for (const command of ["score", "validate"]) {
      const r = await runCli([command, "--task", "sick2014", "--gold", sickGold, "--lenient", newsick, "--json"])
      expect(r.code, command).toBe(0)
      const out = JSON.parse(r.stdout) as { runs: Array<{ warnings: Array<{ code: string }> }> }
      expect(out.runs[0].warnings.map((w) => w.code)).toContain("missing-header")
    }
    // rank --lenient: the headerless run is ranked in entailment (with --all-runs: it is not primary)
    const ranked = await runCli(["rank", "--task", "sick2014", "--gold", sickGold, "--all-runs", "--lenient", submissions, "--json"])
    const board = JSON.parse(ranked.stdout) as { rankings: { rankings: Array<{ ranking: string; entries: Array<{ id: string; rank: number | null }> }> } }
    const entailment = board.rankings.rankings.find((r) => r.ranking === "entailment")!
    expect(entailment.entries.find((e) => e.id === "MeaningFactory/run2")!.rank).toEqual(expect.any(Number))
    const strictRank = await runCli(["rank", "--task", "sick2014", "--gold", sickGold, "--all-runs", submissions, "--json"])
    const strictBoard = JSON.parse(strictRank.stdout) as typeof board
    expect(strictBoard.rankings.rankings.find((r) => r.ranking === "entailment")!.entries.find((e) => e.id === "MeaningFactory/run2")!.rank).toBeNull()
    const text = await runCli(["score", "--task", "sick2014", "--gold", sickGold, "--lenient", newsick])
    expect(text.stdout).toMatch(/entailment\s+4927\s+accuracy \d/)
    expect(text.stdout).toMatch(/warning: .*no header line/)
  })

  it("exits 0 when every run given is valid", async () => {
    const r = await runCli(["validate", "--task", "sick2014", "--gold", sickGold, path.join(submissions, "MeaningFactory_run1primary.txt")])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("all valid")
  })

  it("a missing gold is a usage error saying how to get one", async () => {
    const r = await runCli(["validate", "--task", "sick2014", "--data-root", path.join(examples, "no-such-store"), submissions])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("stseval data fetch sick2014")
  })
})

describe("stseval score / rank (shipped SICK runs, official R scorer figures)", () => {
  // ../shared/reference/sick-posttask-runs.official-R.tsv, row for The Meaning Factory's submission.txt
  const official = { accuracy: 79.6427846559773, pearson: 0.826381603887488, spearman: 0.771423487071558, mse: 0.323404337327026 }

  it("score --json reproduces the official scorer to 1e-9", async () => {
    const r = await runCli(["score", "--task", "sick2014", "--gold", sickGold, path.join(submissions, "MeaningFactory_run1primary.txt"), "--json"])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as { runs: Array<{ datasets: { relatedness: { figures: { pearson: number; spearman: number; mse: number } }; entailment: { figures: { accuracy: number } } } }> }
    const run = out.runs[0]
    expect(run.datasets.relatedness.figures.pearson).toBeCloseTo(official.pearson, 9)
    expect(run.datasets.relatedness.figures.spearman).toBeCloseTo(official.spearman, 9)
    expect(run.datasets.relatedness.figures.mse).toBeCloseTo(official.mse, 9)
    expect(run.datasets.entailment.figures.accuracy).toBeCloseTo(official.accuracy, 9)
  })

  it("score exits 1 for a malformed run and still scores the good one given with it", async () => {
    const r = await runCli(["score", "--task", "sick2014", "--gold", sickGold, path.join(submissions, "Insight_run2.txt"), path.join(submissions, "MeaningFactory_run1primary.txt"), "--json"])
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout) as { runs: Array<{ status: string; datasets: Record<string, { figures: Record<string, number | null> }> }> }
    expect(out.runs.map((x) => x.status)).toEqual(["failed", "scored"])
    expect(out.runs[1].datasets["relatedness"].figures["pearson"]).toBeCloseTo(official.pearson, 9)
  })

  it("rank ranks primary runs only, and never ranks a failed run", async () => {
    const r = await runCli(["rank", "--task", "sick2014", "--gold", sickGold, submissions, "--json"])
    expect(r.code).toBe(0)
    type Entry = { rank: number | null; id: string; value: number | null }
    const out = JSON.parse(r.stdout) as { rankings: { excluded: number; rankings: Array<{ ranking: string; entries: Entry[] }> } }
    const relatedness = out.rankings.rankings.find((x) => x.ranking === "relatedness")!
    expect(relatedness.entries.filter((e) => e.rank !== null).map((e) => e.id)).toEqual(["MeaningFactory/run1", "Insight/run1", "Baseline-overlap/run1"])
    expect(out.rankings.excluded).toBe(2)
    const all = await runCli(["rank", "--all-runs", "--task", "sick2014", "--gold", sickGold, submissions, "--json"])
    const allOut = JSON.parse(all.stdout) as typeof out
    for (const ranking of allOut.rankings.rankings) {
      const failed = ranking.entries.find((e) => e.id === "Insight/run2")!
      expect(failed.rank).toBeNull()
    }
    const strict = await runCli(["rank", "--strict", "--all-runs", "--task", "sick2014", "--gold", sickGold, submissions])
    expect(strict.code).toBe(1)
  })
})

describe.skipIf(!hasShared)("stseval score (STS 2017 synthetic run from ../shared, official figures)", () => {
  it("per-track Pearson matches R to 1e-9 and the primary figure is the mean of the seven tracks", async () => {
    const reference = fs
      .readFileSync(path.join(shared, "reference/sts-synthetic-runs.official.tsv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t"))
      .filter((f) => f[0] === "sts2017")
    const r = await runCli(["score", "--task", "sts2017", "--gold", path.join(shared, "data/sts2017/gold"), path.join(shared, "data/runs/sts-synthetic/sts2017"), "--json"])
    const out = JSON.parse(r.stdout) as { runs: Array<{ datasets: Record<string, { figures: { pearson: number } }>; official: ReadonlyArray<{ value: number }> }> }
    const run = out.runs[0]
    expect(reference).toHaveLength(7)
    for (const [, dataset, , , , , pearsonR] of reference) {
      expect(run.datasets[dataset].figures.pearson).toBeCloseTo(Number(pearsonR), 9)
    }
    const mean = reference.reduce((s, f) => s + Number(f[6]), 0) / 7
    expect(run.official[0].value).toBeCloseTo(mean, 9)
  })
})
if (!hasShared) console.warn("apps/cli: ../shared is absent; the STS 2017 reference test is skipped")
