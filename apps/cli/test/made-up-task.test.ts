/**
 * The made-up task of docs/task-registry.md ("A new task in one file"), run end to end from its
 * edition file alone (examples/made-up-task: a CSV keyed by pair_id with a lang_pair field, rated
 * 1-4 where 1 is most similar, ranked per language pair by Kendall's tau-b). Every figure is
 * checked against scipy's (`scipy.stats.kendalltau`, `pearsonr`, `spearmanr` on the CSV files,
 * written into fixtures/made-up-task.scipy.tsv), never against our own output.
 *
 * Commands run: validate, score, rank --ci, significance, report (md, LaTeX, HTML), watch --once,
 * codabench bundle and codabench score (one competition per language pair), compare.
 *
 * The folder holds what a real task gets: a second run of a team (Aurora_run2, not primary), two
 * runs with the same figures (Borealis and Cirrus: a tie), a run that left out a language pair
 * (Drizzle, no es_es), a post-deadline run (Eclipse, run.json) and a run with comma decimals
 * (Fog, failed).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { repoRoot, runCli } from "./support/cli.js"

const folder = path.join(repoRoot, "examples/made-up-task")
const submissions = path.join(folder, "submissions")
const task = ["--task", path.join(folder, "edition.yaml"), "--gold", path.join(folder, "gold.csv")]
const languages = ["en_en", "de_en", "es_es"] as const
const primaries = ["Aurora_run1primary", "Borealis_run1primary", "Cirrus_run1primary", "Drizzle_run1primary"]
const tmp = scratchDir("made-up")

/** scipy's figures: run file -> dataset -> metric -> value. */
const scipy = new Map<string, Map<string, Record<"kendall" | "pearson" | "spearman", number>>>()
{
  const [header, ...rows] = fs.readFileSync(path.join(import.meta.dirname, "fixtures/made-up-task.scipy.tsv"), "utf8").trim().split("\n")
  expect(header.split("\t")).toEqual(["run", "dataset", "pairs", "kendall", "pearson", "spearman"])
  for (const row of rows) {
    const [run, dataset, , kendall, pearson, spearman] = row.split("\t")
    const byDataset = scipy.get(run) ?? new Map<string, Record<"kendall" | "pearson" | "spearman", number>>()
    byDataset.set(dataset, { kendall: Number(kendall), pearson: Number(pearson), spearman: Number(spearman) })
    scipy.set(run, byDataset)
  }
}
const tau = (run: string, dataset: string): number => scipy.get(run)!.get(dataset)!.kendall

interface Figure {
  readonly value: number | null
  readonly ci?: { readonly low: number; readonly high: number; readonly level: number }
}
interface RunJson {
  readonly run: { readonly id: string; readonly postDeadline: boolean }
  readonly status: string
  /** a figure is a number, or with --ci its value and interval */
  readonly datasets: Record<string, { readonly status: string; readonly figures?: Record<string, number | null | Figure> }>
}
interface RankJson {
  readonly runs: ReadonlyArray<RunJson>
  readonly rankings: {
    readonly rankings: ReadonlyArray<{
      readonly ranking: string
      readonly metric: string
      readonly entries: ReadonlyArray<{
        readonly rank: number | null
        readonly id: string
        readonly value: number | null
        readonly reason?: string
        readonly ci?: { readonly low: number; readonly high: number }
        readonly rankInterval?: { readonly low: number; readonly high: number }
      }>
    }>
  }
}

const json = async <A>(args: ReadonlyArray<string>, code = 0): Promise<A> => {
  const r = await runCli(args)
  expect(r.code, r.stderr).toBe(code)
  return JSON.parse(r.stdout) as A
}

describe("the made-up task, from its edition file alone", () => {
  it("validate: every run checked, the comma decimals of Fog named by file and line (exit 1)", async () => {
    const r = await runCli(["validate", ...task, submissions])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`${path.join(submissions, "Fog_run1primary.csv")}:3: error: the overall on line 3 is not a number; use "." as the decimal point`)
    // Drizzle entered two of the three language pairs: not an error of its file
    expect(r.stdout).toMatch(/Drizzle\/run1 \(primary\)[\s\S]*?es_es\s+not submitted/)
    expect(r.stdout).toContain("7 run(s): 1 with errors")
  })

  it("score: Kendall's tau-b, Pearson and Spearman of every run and language pair are scipy's", async () => {
    for (const [run, byDataset] of scipy) {
      const file = fs.existsSync(path.join(submissions, `${run}.csv`)) ? path.join(submissions, `${run}.csv`) : path.join(submissions, run)
      const doc = await json<{ runs: ReadonlyArray<RunJson> }>(["score", ...task, file, "--json"])
      const scored = doc.runs[0]
      for (const [dataset, expected] of byDataset) {
        const figures = scored.datasets[dataset].figures!
        // the ranking's metric first, then the others it reports, as the edition lists them
        expect(Object.keys(figures)).toEqual(["kendall", "spearman", "pearson"])
        for (const metric of ["kendall", "pearson", "spearman"] as const) expect(figures[metric]).toBeCloseTo(expected[metric], 12)
      }
    }
  })

  it("rank --ci 95: one ranking per language pair by tau, ties shared, late and failed runs listed and never ranked", async () => {
    const doc = await json<RankJson>(["rank", ...task, submissions, "--ci", "95", "--resamples", "300", "--json"])
    const rankings = doc.rankings.rankings
    expect(rankings.map((r) => [r.ranking, r.metric])).toEqual(languages.map((l) => [l, "kendall"]))
    for (const ranking of rankings) {
      const ranked = ranking.entries.filter((e) => e.rank !== null)
      // the primary runs with a figure in this language pair, best tau first (scipy's order)
      const expected = primaries
        .filter((run) => scipy.get(run)!.has(ranking.ranking))
        .sort((a, b) => tau(b, ranking.ranking) - tau(a, ranking.ranking) || a.localeCompare(b))
      expect(ranked.map((e) => e.id)).toEqual(expected.map((run) => `${run.split("_")[0]}/run1`))
      for (const e of ranked) expect(e.value).toBeCloseTo(tau(`${e.id.split("/")[0]}_run1primary`, ranking.ranking), 12)
      // Borealis and Cirrus have the same tau: the same rank, and the next rank skipped
      const borealis = ranked.find((e) => e.id === "Borealis/run1")!
      const cirrus = ranked.find((e) => e.id === "Cirrus/run1")!
      expect(cirrus.rank).toBe(borealis.rank)
      // ranks are competition ranks (1, 2, 2, 4)
      for (const e of ranked) expect(e.rank).toBe(ranked.findIndex((x) => Math.abs((x.value ?? NaN) - (e.value ?? NaN)) < 1e-12) + 1)
      // the post-deadline run (its tau beats everyone's) is listed without a rank and pushes no one down
      const eclipse = ranking.entries.find((e) => e.id === "Eclipse/run1")!
      expect(eclipse.rank).toBeNull()
      expect(eclipse.reason).toContain("after the deadline")
      expect(ranked[0].rank).toBe(1)
      const fog = ranking.entries.find((e) => e.id === "Fog/run1")!
      expect(fog.rank).toBeNull()
      expect(fog.reason).toContain("failed")
      // every interval holds its estimate; rank intervals lie within the ranked runs
      for (const e of ranked) {
        expect(e.ci!.low).toBeLessThanOrEqual(e.value!)
        expect(e.ci!.high).toBeGreaterThanOrEqual(e.value!)
        expect(e.rankInterval!.low).toBeGreaterThanOrEqual(1)
        expect(e.rankInterval!.high).toBeLessThanOrEqual(ranked.length)
      }
    }
    // Drizzle has no es_es figure: listed there, not ranked
    const es = rankings.find((r) => r.ranking === "es_es")!
    expect(es.entries.find((e) => e.id === "Drizzle/run1")!.reason).toContain("no record of dataset es_es")
    // the intervals of the other figures contain their estimates too (Spearman, Pearson)
    for (const run of doc.runs.filter((r) => r.status === "scored")) {
      for (const d of Object.values(run.datasets)) {
        for (const f of Object.values(d.figures ?? {}) as ReadonlyArray<Figure>) {
          if (f.value === null) continue
          expect(f.ci!.low).toBeLessThanOrEqual(f.value)
          expect(f.ci!.high).toBeGreaterThanOrEqual(f.value)
        }
      }
    }
  })

  it("significance: within each language pair's ranking, by the paired bootstrap on tau (the default for a metric that is not Pearson)", async () => {
    const [rank, doc] = await Promise.all([
      json<RankJson>(["rank", ...task, submissions, "--json"]),
      json<{
        tests: ReadonlyArray<{ ranking: string; test: string; metric: string; runs: ReadonlyArray<{ run: string; estimate: number }>; excluded: ReadonlyArray<{ run: string; reason: string }> }>
      }>(["significance", ...task, submissions, "--resamples", "300", "--json"])
    ])
    expect(doc.tests.map((t) => [t.ranking, t.metric, t.test])).toEqual(languages.map((l) => [l, "kendall", "bootstrap"]))
    for (const t of doc.tests) {
      // the runs the ranking ranks, no other: the post-deadline and failed runs are left out, with rank's reason
      const ranked = rank.rankings.rankings.find((r) => r.ranking === t.ranking)!.entries.filter((e) => e.rank !== null)
      expect(new Set(t.runs.map((r) => r.run))).toEqual(new Set(ranked.map((e) => e.id)))
      for (const r of t.runs) expect(r.estimate).toBeCloseTo(tau(`${r.run.split("/")[0]}_run1primary`, t.ranking), 12)
      expect(t.excluded.find((e) => e.run === "Eclipse/run1")?.reason).toContain("after the deadline")
    }
  })

  it("report: the Markdown, LaTeX and HTML tables give scipy's tau and its rank in each language pair, the caption names Kendall's tau-b", async () => {
    for (const format of ["md", "latex", "html"] as const) {
      const r = await runCli(["report", ...task, submissions, "--format", format])
      expect(r.code, `${format}: ${r.stderr}`).toBe(0)
      expect(r.stdout, format).toContain(format === "html" ? "Kendall&#39;s tau-b" : "Kendall's tau-b")
      const row = r.stdout.split("\n").find((l) => l.includes("Aurora/run1") && !l.includes("Aurora/run2"))
      expect(row, `${format}: Aurora's row`).toBeDefined()
      for (const language of languages) {
        const rank = primaries.filter((run) => scipy.get(run)!.has(language) && tau(run, language) > tau("Aurora_run1primary", language)).length + 1
        expect(row, `${format} ${language}`).toContain(`${tau("Aurora_run1primary", language).toFixed(3)}`)
        expect(row, `${format} ${language}: rank`).toContain(`(${rank})`)
      }
    }
  })

  it("watch --once: the board ranks each language pair by scipy's tau; the late run is listed unranked, the failed run never ranked", async () => {
    const out = path.join(tmp, "board")
    // primary runs only, as rank ranks them (a live board lists every run by default)
    const r = await runCli(["watch", ...task, "--once", "--primary-only", "--out", out, submissions])
    expect(r.code, r.stderr).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as {
      rankings: ReadonlyArray<{ ranking: string; entries: ReadonlyArray<{ id: string; rank: number | null; value: number | null; postDeadline?: boolean }> }>
    }
    expect(board.rankings.map((b) => b.ranking)).toEqual([...languages])
    for (const ranking of board.rankings) {
      const ranked = ranking.entries.filter((e) => e.rank !== null)
      const expected = primaries.filter((run) => scipy.get(run)!.has(ranking.ranking)).sort((a, b) => tau(b, ranking.ranking) - tau(a, ranking.ranking) || a.localeCompare(b))
      expect(ranked.map((e) => e.id)).toEqual(expected.map((run) => `${run.split("_")[0]}/run1`))
      for (const e of ranked) expect(e.value).toBeCloseTo(tau(`${e.id.split("/")[0]}_run1primary`, ranking.ranking), 12)
      const eclipse = ranking.entries.find((e) => e.id === "Eclipse/run1")
      expect(eclipse?.rank ?? null).toBeNull()
      expect(eclipse?.postDeadline).toBe(true)
      expect(ranking.entries.find((e) => e.id === "Fog/run1")?.rank ?? null).toBeNull()
    }
  })

  it("codabench bundle and score: one competition per language pair, scores.json holds scipy's tau, a failed or empty submission uploads no scores", async () => {
    const bundle = path.join(tmp, "bundle")
    const cli = path.join(tmp, "stseval.mjs")
    fs.writeFileSync(cli, "// not run here\n")
    const made = await runCli(["codabench", "bundle", ...task, "--out", bundle, "--cli", cli, "--live-test"])
    expect(made.code, made.stderr).toBe(0)
    expect(fs.readdirSync(bundle).filter((f) => !f.endsWith(".zip")).sort()).toEqual([...languages].sort())
    for (const language of languages) {
      for (const run of ["Aurora_run1primary", "Drizzle_run1primary", "Fog_run1primary"]) {
        const input = path.join(tmp, "codabench", language, run, "input")
        const output = path.join(tmp, "codabench", language, run, "output")
        fs.cpSync(path.join(bundle, language, "reference_data_test"), path.join(input, "ref"), { recursive: true })
        fs.mkdirSync(path.join(input, "res"), { recursive: true })
        fs.copyFileSync(path.join(submissions, `${run}.csv`), path.join(input, "res", `${run}.csv`))
        const r = await runCli(["codabench", "score", input, output])
        const expected = scipy.get(run)?.get(language)
        if (expected === undefined) {
          // Fog's comma decimals; Drizzle has no record of es_es
          expect(r.code, `${language} ${run}`).toBe(1)
          expect(fs.existsSync(path.join(output, "scores.json")), `${language} ${run}: no scores`).toBe(false)
          expect(r.stdout + r.stderr).toContain(run.startsWith("Fog") ? 'use "." as the decimal point' : `nothing of ${language}`)
          continue
        }
        expect(r.code, `${language} ${run}: ${r.stderr}`).toBe(0)
        const scores = JSON.parse(fs.readFileSync(path.join(output, "scores.json"), "utf8")) as Record<string, number>
        expect(Object.keys(scores)).toEqual(["kendall", "spearman", "pearson"])
        for (const metric of ["kendall", "spearman", "pearson"] as const) expect(scores[metric], `${language} ${run} ${metric}`).toBeCloseTo(expected[metric], 12)
      }
    }
  })

  it("compare: two runs per language pair and on the mean, by tau", async () => {
    const doc = await json<{
      metric: string
      datasets: ReadonlyArray<{ dataset: string; comparison: { test: string; estimateA: number; estimateB: number } }>
      aggregate?: { dataset: string }
    }>(["compare", ...task, path.join(submissions, "Aurora_run1primary.csv"), path.join(submissions, "Borealis_run1primary.csv"), "--resamples", "300", "--json"])
    expect(doc.metric).toBe("kendall")
    expect(doc.datasets.map((d) => d.dataset)).toEqual([...languages])
    for (const d of doc.datasets) {
      expect(d.comparison.test).toBe("bootstrap")
      expect(d.comparison.estimateA).toBeCloseTo(tau("Aurora_run1primary", d.dataset), 12)
      expect(d.comparison.estimateB).toBeCloseTo(tau("Borealis_run1primary", d.dataset), 12)
    }
  })
})
