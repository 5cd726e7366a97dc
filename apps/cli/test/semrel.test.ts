/**
 * SemEval-2024 Task 1 (SemRel), GLUE STS-B files and MTEB predictions end to end through the
 * `stseval` executable: the official evaluation.py figures of ../shared's synthetic runs, the
 * organisers' lexical-overlap baseline figures, each submission evaluation.py refuses (exit 1, no
 * figure for that language, the reason), GLUE and MTEB files scoring like the same scores given as
 * a plain run, and `data` selecting the three tracks by one name.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { hasShared, runCli, shared } from "./support/cli.js"

const tmp = scratchDir("cli-semrel")

const tsv = (file: string) => {
  const [header, ...rows] = fs.readFileSync(file, "utf8").trimEnd().split(/\r?\n/)
  const names = header.split("\t")
  return rows.map((row) => Object.fromEntries(row.split("\t").map((v, i) => [names[i], v])))
}

interface DatasetJson {
  status: string
  reason?: string
  figures: { pearson: number | null; spearman: number | null }
}
interface ScoredJson {
  runs: Array<{
    run: { id: string }
    path: string
    status: string
    datasets: Record<string, DatasetJson>
    aggregates: Record<string, Record<string, { value: number | null; unofficial?: string }>>
    official: Array<{ ranking: string; metric: string; value: number | null }>
    errors: Array<{ code: string; file: string; line?: number; message: string }>
  }>
  rankings?: { rankings: Array<{ ranking: string; metric: string; entries: Array<{ rank: number | null; id: string }> }> }
}

// A tiny eng gold: the edition's published pair count differs (a warning), which is all it costs.
const goldFile = path.join(tmp, "eng_test_with_labels.csv")
const gold: ReadonlyArray<readonly [string, number]> = [["eng-1", 0.1], ["eng-2", 0.9], ["eng-3", 0.4], ["eng-4", 0.6], ["eng-5", 0.3]]
fs.writeFileSync(goldFile, `PairID,Text,Score\n${gold.map(([id, s]) => `${id},"a sentence\nanother one",${s}\n`).join("")}`)
const runFolder = (name: string, predEng: string, folder = "runs") => {
  const dir = path.join(tmp, folder, name)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, "pred_eng.csv"), predEng)
  return dir
}
const pred = (rows: ReadonlyArray<readonly [string, number | string]>) => `PairID,Pred_Score\n${rows.map(([id, s]) => `${id},${s}\n`).join("")}`
const good: ReadonlyArray<readonly [string, number]> = [["eng-3", 0.5], ["eng-1", 0.2], ["eng-5", 0.1], ["eng-2", 0.7], ["eng-4", 0.8]]

describe("stseval score --task semrel2024-a (a small gold in the test)", () => {
  it("a good run: datasets.eng.spearman is the rank correlation worked by hand, exit 0, esp and the languages not entered held against nothing", async () => {
    const r = await runCli(["score", "--task", "semrel2024-a", "--gold", goldFile, runFolder("Good_run1", pred(good)), "--json"])
    expect(r.code).toBe(0)
    const run = (JSON.parse(r.stdout) as ScoredJson).runs[0]
    // gold order eng-1..5: run 0.2 0.7 0.5 0.8 0.1 -> ranks 2 4 3 5 1; gold 0.1 0.9 0.4 0.6 0.3 -> ranks 1 5 3 4 2
    // sum d^2 = 1 + 1 + 0 + 1 + 1 = 4; rho = 1 - 6 * 4 / (5 * 24) = 0.8
    expect(run.datasets["eng"].figures.spearman).toBeCloseTo(0.8, 12)
    expect(run.datasets["esp"].status).toBe("no-gold")
    expect(run.errors).toEqual([])
    expect(run.official.find((o) => o.ranking === "eng")).toMatchObject({ metric: "spearman" })
  })

  const refusals: ReadonlyArray<readonly [string, string, string]> = [
    ["no header", good.map(([id, s]) => `${id},${s}\n`).join(""), "missing-header"],
    ["a different number of lines", pred(good.slice(0, 4)), "length-mismatch"],
    ["a repeated id", pred([...good.slice(0, 4), ["eng-3", 0.2]]), "duplicate-pair"],
    ["an unknown id", pred([...good.slice(0, 4), ["eng-99", 0.2]]), "unknown-pair"],
    ["a NaN prediction", pred([...good.slice(0, 4), ["eng-2", "NaN"]]), "non-finite"]
  ]
  it("each submission evaluation.py refuses (no header, another number of lines, a repeated or unknown id) and a NaN: exit 1, no figure for eng, the reason", async () => {
    const paths = refusals.map(([, text, code]) => runFolder(`Bad-${code}_run1`, text))
    const r = await runCli(["score", "--task", "semrel2024-a", "--gold", goldFile, ...paths, "--json"])
    expect(r.code).toBe(1)
    const runs = (JSON.parse(r.stdout) as ScoredJson).runs
    expect(runs).toHaveLength(refusals.length)
    refusals.forEach(([what, , code], i) => {
      const run = runs[i]
      expect(run.path, what).toBe(paths[i])
      expect(run.datasets["eng"], what).toMatchObject({ status: "not-scored", figures: { spearman: null, pearson: null } })
      // the reason is said once: the error itself, not "eng is not scored: ..." (the row already says so)
      expect(run.datasets["eng"].reason, what).not.toMatch(/^eng is not scored/)
      expect(run.errors.some((e) => run.datasets["eng"].reason!.includes(e.message)), what).toBe(true)
      expect(run.errors.map((e) => e.code), what).toContain(code)
      expect(run.errors[0].file, what).toMatch(/pred_eng\.csv$/)
    })
  })

  it("rank: one ranking per language, by Spearman", async () => {
    runFolder("Perfect_run1primary", pred(gold), "subs")
    runFolder("Good_run1primary", pred(good), "subs")
    const r = await runCli(["rank", "--task", "semrel2024-a", "--gold", goldFile, path.join(tmp, "subs"), "--json"])
    expect(r.code).toBe(0)
    const rankings = (JSON.parse(r.stdout) as ScoredJson).rankings!.rankings
    const eng = rankings.find((x) => x.ranking === "eng")!
    expect(eng.metric).toBe("spearman")
    expect(eng.entries.map((e) => [e.rank, e.id])).toEqual([[1, "Perfect/run1"], [2, "Good/run1"]])
    expect(rankings.some((x) => x.ranking === "esp")).toBe(false)
  })
})

describe("stseval rank / report --ci on SemRel: a rank interval in each language", () => {
  // 50 eng pairs; Sharp is far better than the others, Blunt and Rough are close to each other
  const n = 50
  const goldRows = Array.from({ length: n }, (_, i) => [`eng-${i + 1}`, ((i * 37) % 101) / 100] as const)
  fs.mkdirSync(path.join(tmp, "ci-gold"), { recursive: true })
  const ciGold = path.join(tmp, "ci-gold", "eng_test_with_labels.csv")
  fs.writeFileSync(ciGold, `PairID,Text,Score\n${goldRows.map(([id, s]) => `${id},"a\nb",${s}\n`).join("")}`)
  // deterministic noise of a given size (a fixed sequence, not a generator of the engine's)
  const noisy = (size: number, phase: number) => pred(goldRows.map(([id, s], i) => [id, Math.round((s + size * Math.sin(i * 12.9898 + phase)) * 1000) / 1000]))
  runFolder("Sharp_run1primary", noisy(0.05, 1), "ci-subs")
  runFolder("Blunt_run1primary", noisy(0.6, 2), "ci-subs")
  runFolder("Rough_run1primary", noisy(0.65, 3), "ci-subs")
  const folder = path.join(tmp, "ci-subs")
  const args = ["--task", "semrel2024-a", "--gold", ciGold, folder, "--ci", "95", "--resamples", "300", "--seed", "7"]

  it("rank --ci 95 --json: rankInterval on each ranked entry of the eng ranking, [1, 1] for a far better run, the best group; same seed, same bytes", async () => {
    const r = await runCli(["rank", ...args, "--json"])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as {
      rankings: { rankings: Array<{ ranking: string; bestGroup?: Array<string>; entries: Array<{ rank: number | null; id: string; rankInterval?: { low: number; high: number }; overlapsBest?: boolean; ci?: unknown }> }> }
    }
    const eng = out.rankings.rankings.find((x) => x.ranking === "eng")!
    expect(eng.entries.map((e) => e.id)).toEqual(["Sharp/run1", "Blunt/run1", "Rough/run1"])
    for (const e of eng.entries) {
      expect(e.rankInterval!.low).toBeLessThanOrEqual(e.rank!)
      expect(e.rankInterval!.high).toBeGreaterThanOrEqual(e.rank!)
      expect(e.ci).toMatchObject({ level: 0.95 })
    }
    expect(eng.entries[0].rankInterval).toEqual({ low: 1, high: 1 })
    expect(eng.bestGroup).toEqual(["Sharp/run1"])
    const again = await runCli(["rank", ...args, "--json"])
    expect(again.stdout).toBe(r.stdout)
  })

  it("rank --ci 95 (text): the range column of each language; report --ci: (rank; range) in each language's cells", async () => {
    const r = await runCli(["rank", ...args])
    expect(r.code).toBe(0)
    const eng = r.stdout.slice(r.stdout.indexOf("eng \u2014 Spearman"))
    expect(eng).toMatch(/rank\s+range\s+run/)
    // the best run: no ≈ on it (its interval overlaps only its own; issue 32)
    expect(eng).toMatch(/^\s+1\s+1\s+Sharp\/run1\s+0\.\d{3}\s+\[0\.\d{3}, [01]\.\d{3}\]/m)
    // every ranked row: its rank, then its range (one rank, or low-high)
    const rows = eng.split("\n\n")[0].split("\n").slice(2)
    expect(rows).toHaveLength(3)
    for (const line of rows) expect(line).toMatch(/^\s+[1-3]\s+[1-3](-[1-3])?\s+\w+\/run1/)
    const report = await runCli(["report", ...args, "--format", "md"])
    expect(report.code).toBe(0)
    expect(report.stdout).toMatch(/\| Sharp\/run1 \|[^\n]*\b0\.\d{3} \(1; 1\)/)
    expect(report.stdout).not.toMatch(/\| Sharp\/run1 \|[^\n]*\(1; 1\)\u2248/)
  })
})

describe("stseval data status semrel2024", () => {
  it("selects the three tracks by one name (Registry.select)", async () => {
    const r = await runCli(["data", "status", "semrel2024", "--data-root", path.join(tmp, "store"), "--json"])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as { editions: Array<{ task: string; sources: Array<{ file: string; status: string }> }> }
    expect(out.editions.map((e) => e.task)).toEqual(["semrel2024-a", "semrel2024-b", "semrel2024-c"])
    // esp: the unlabelled test input only, as its labels were never released
    const a = out.editions[0].sources.map((s) => s.file)
    expect(a).toContain("esp/esp_test.csv")
    expect(a).not.toContain("esp/esp_test_with_labels.csv")
  })
})

describe("stseval import mteb (no data needed)", () => {
  it("a file that is not MTEB predictions: exit 1 and the reason", async () => {
    const file = path.join(tmp, "STSBenchmark_predictions.json")
    fs.writeFileSync(file, JSON.stringify({ default: { test: { cosine_scores: [0.5] } } }))
    const r = await runCli(["import", "mteb", file, "--out", path.join(tmp, "mteb-bad")])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/STSBenchmark_predictions\.json/)
    expect(r.stderr).toMatch(/mteb_model_meta/)
  })
})

if (!hasShared) console.warn("apps/cli semrel.test.ts: ../shared is absent; the SemRel reference, lexical-overlap, GLUE and MTEB tests are skipped")

describe.skipIf(!hasShared)("../shared/reference/semrel2024-synthetic-runs.official.tsv through stseval score --json", () => {
  const rows = hasShared ? tsv(path.join(shared, "reference/semrel2024-synthetic-runs.official.tsv")) : []
  it.each(["a", "b"])("track %s: every row's Spearman to 1e-9, exit as evaluation.py", async (track) => {
    const mine = rows.filter((row) => row["run"].startsWith(`track-${track}-`))
    expect(mine.length).toBeGreaterThan(0)
    const runs = mine.map((row) => path.join(shared, "data/runs/semrel2024-synthetic", row["run"]))
    const r = await runCli(["score", "--task", `semrel2024-${track}`, "--gold", path.join(shared, `data/semrel2024/track-${track}`), ...runs, "--json"])
    expect(r.code).toBe(mine.every((row) => row["exit"] === "0") ? 0 : 1)
    const out = JSON.parse(r.stdout) as ScoredJson
    for (const row of mine) {
      const run = out.runs.find((x) => path.basename(x.path) === row["run"])!
      expect(Math.abs(run.datasets[row["lang"]].figures.spearman! - Number(row["spearman"]))).toBeLessThan(1e-9)
    }
  })
  it("covers every row of the reference", () => {
    expect(rows.filter((row) => /^track-[ab]-/.test(row["run"]))).toHaveLength(rows.length)
  })
})

describe.skipIf(!hasShared)("stseval baseline lexical-overlap --score: ../shared/reference/semrel2024-lexical-overlap.tsv", () => {
  const rows = hasShared ? tsv(path.join(shared, "reference/semrel2024-lexical-overlap.tsv")) : []
  it("has 30 rows over the three tracks", () => {
    expect(rows).toHaveLength(30)
  })
  it.each(["a", "b", "c"])("track %s: every language's Spearman to 1e-9 (esp written, listed without a gold)", async (track) => {
    const out = path.join(tmp, `lexical-${track}`)
    const r = await runCli(["baseline", "lexical-overlap", "--task", `semrel2024-${track}`, "--input", path.join(shared, `data/semrel2024/track-${track}`), "--out", out, "--score", "--json"])
    expect(r.code).toBe(0)
    const run = (JSON.parse(r.stdout) as ScoredJson).runs[0]
    const mine = rows.filter((row) => row["track"] === `track-${track}`)
    expect(mine.length).toBeGreaterThan(0)
    for (const row of mine) {
      expect(Math.abs(run.datasets[row["lang"]].figures.spearman! - Number(row["spearman"]))).toBeLessThan(1e-9)
    }
    expect(Object.values(run.datasets).filter((d) => d.status === "scored")).toHaveLength(mine.length)
    expect(run.datasets["esp"].status).toBe("no-gold")
    expect(fs.existsSync(path.join(out, "lexical-overlap_run1primary", "pred_esp.csv"))).toBe(true)
    expect(run.aggregates.official.mean.unofficial).toMatch(/not an official figure/)
  })
})

describe.skipIf(!hasShared)("GLUE STS-B.tsv and MTEB predictions score like the same scores as a plain run (STS Benchmark gold from ../shared)", () => {
  const stsbGold = path.join(shared, "data/stsbenchmark/sts-test.csv")
  // seeded scores in [0, 5], one per test pair
  const n = 1379
  let seed = 7
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
  const scores = Array.from({ length: n }, () => Math.round(5000 * next()) / 1000)

  const scoreBoth = async (a: string, b: string) => {
    const r = await runCli(["score", "--task", "stsb", "--gold", stsbGold, a, b, "--json"])
    expect(r.code).toBe(0)
    return (JSON.parse(r.stdout) as ScoredJson).runs
  }

  it("baseline --format glue writes STS-B.tsv, which scores like the same scores written one per line", async () => {
    const glue = await runCli(["baseline", "tokencos", "--task", "stsb", "--input", stsbGold, "--format", "glue", "--out", path.join(tmp, "glue")])
    expect(glue.code).toBe(0)
    const glueFile = path.join(tmp, "glue", "tokencos_run1primary", "STS-B.tsv")
    const [header, ...rows] = fs.readFileSync(glueFile, "utf8").trimEnd().split("\n")
    expect(header).toBe("index\tprediction")
    expect(rows).toHaveLength(n)
    // the same predictions as a plain run: one per line, in index order
    const byIndex = new Map(rows.map((r) => r.split("\t")).map(([i, v]) => [Number(i), v]))
    const plainFile = path.join(tmp, "glue-plain.txt")
    fs.writeFileSync(plainFile, Array.from({ length: n }, (_, i) => `${byIndex.get(i)}\n`).join(""))
    const [a, b] = await scoreBoth(path.join(tmp, "glue", "tokencos_run1primary"), plainFile)
    expect(a.datasets["test"].figures.pearson).not.toBeNull()
    expect(a.datasets["test"].figures.pearson).toBe(b.datasets["test"].figures.pearson)
    expect(a.datasets["test"].figures.spearman).toBe(b.datasets["test"].figures.spearman)
    expect(a.official).toEqual(b.official)
  })

  it("an MTEB STSBenchmark_predictions.json imported with `import mteb` scores like the plain run", async () => {
    const dir = path.join(tmp, "mteb-in")
    fs.mkdirSync(dir, { recursive: true })
    // the documented format: model meta, then subset -> split -> the evaluator's score lists
    const negated = scores.map((s) => -(5 - s))
    fs.writeFileSync(
      path.join(dir, "STSBenchmark_predictions.json"),
      JSON.stringify({
        mteb_model_meta: { model_name: "org/tiny-model", revision: "abc123" },
        default: { test: { cosine_scores: scores, manhattan_distances: negated, euclidean_distances: negated, similarity_scores: null } }
      })
    )
    const imported = await runCli(["import", "mteb", dir, "--out", path.join(tmp, "mteb-out"), "--gold", stsbGold])
    expect(imported.code).toBe(0)
    expect(imported.stdout).toContain("stsb:")
    const plainFile = path.join(tmp, "mteb-plain.txt")
    fs.writeFileSync(plainFile, scores.map((s) => `${s}\n`).join(""))
    const [a, b] = await scoreBoth(path.join(tmp, "mteb-out", "org_tiny-model"), plainFile)
    expect(a.datasets["test"].figures.pearson).not.toBeNull()
    expect(a.datasets["test"].figures.pearson).toBe(b.datasets["test"].figures.pearson)
    expect(a.datasets["test"].figures.spearman).toBe(b.datasets["test"].figures.spearman)
    // run.json: the team is the model
    expect(a.run.id).toBe("org/tiny-model/run1")
  })
})

// Issue 21's repro: SemRel `report` gave the post-deadline run orca/run2 rank (1) in every language
// and pushed nile/run1 to (3), while `rank` said 2 (the tables ranked again). A folder of the shared
// synthetic runs: orca/run2 holds the best predictions (sd 0.05) but came after the deadline.
describe.skipIf(!hasShared)("SemRel: a post-deadline run takes no rank in any language, in every output", () => {
  const folder = path.join(tmp, "semrel-late")
  const put = (name: string, sd: string, meta?: object) => {
    const dir = path.join(folder, name)
    for (const lang of ["eng", "amh"]) {
      fs.mkdirSync(dir, { recursive: true })
      fs.copyFileSync(path.join(shared, `data/runs/semrel2024-synthetic/track-a-${lang}-sd${sd}/pred_${lang}.csv`), path.join(dir, `pred_${lang}.csv`))
    }
    if (meta !== undefined) fs.writeFileSync(path.join(dir, "run.json"), JSON.stringify(meta))
  }
  if (hasShared) {
    put("nile_run1primary", "0.15")
    put("orca_run1primary", "0.30")
    put("orca_run2", "0.05", { team: "orca", run: 2, primary: true, postDeadline: true })
  }
  const args = ["--task", "semrel2024-a", "--gold", path.join(shared, "data/semrel2024/track-a"), folder]
  type Cell = { _tag: string; rank?: number; marks: Array<string>; display: string }
  type Doc = { tables: Array<{ sections: Array<{ rows: Array<{ id: string; postDeadline: boolean; cells: Record<string, Cell> }> }>; footnotes: Array<string> }> }

  it("rank --json and report --format json: the same ranks per language, orca/run2 listed with its mark and no rank, nile/run1 first", async () => {
    const ranked = await runCli(["rank", ...args, "--all-runs", "--json"])
    expect(ranked.code).toBe(0)
    const rankings = (JSON.parse(ranked.stdout) as ScoredJson).rankings!.rankings
    const report = await runCli(["report", ...args, "--format", "json"])
    expect(report.code).toBe(0)
    const doc = JSON.parse(report.stdout) as Doc
    const rows = doc.tables[0].sections.flatMap((s) => s.rows)
    for (const lang of ["eng", "amh"]) {
      const entries = rankings.find((k) => k.ranking === lang)!.entries
      expect(entries.map((e) => [e.id, e.rank])).toEqual([["nile/run1", 1], ["orca/run1", 2], ["orca/run2", null]])
      for (const e of entries) expect(rows.find((r) => r.id === e.id)!.cells[lang].rank ?? null).toBe(e.rank)
      // orca/run2 has the best figure, yet it is never bold-as-best nor ranked: the best is nile/run1
      const orca2 = rows.find((r) => r.id === "orca/run2")!.cells[lang]
      const nile = rows.find((r) => r.id === "nile/run1")!.cells[lang]
      expect(Number.parseFloat(orca2.display)).toBeGreaterThan(Number.parseFloat(nile.display))
      expect(nile.marks).toContain("tied")
    }
    expect(rows.find((r) => r.id === "orca/run2")!.postDeadline).toBe(true)
    // the post-deadline run is listed last
    expect(rows.map((r) => r.id).at(-1)).toBe("orca/run2")
    expect(doc.tables[0].footnotes.join(" ")).toContain("post-deadline submission: listed, never ranked")
  })

  it("report (md): orca/run2 shows its figures without a rank, nile/run1 shows (1) in each language", async () => {
    const md = await runCli(["report", ...args])
    expect(md.code).toBe(0)
    const line = (id: string) => md.stdout.split("\n").find((l) => l.startsWith(`| ${id}`))!
    expect(line("nile/run1").match(/\(1\)/g)).toHaveLength(2)
    expect(line("orca/run2\u2020")).not.toMatch(/\(\d\)/)
    // plot captions and headers name Spearman, never "r"
    expect(md.stdout).toContain("Spearman (rank)")
  })

  it("report --format html: the scatter plots name rho (Spearman), not r", async () => {
    const html = await runCli(["report", ...args, "--format", "html"])
    expect(html.code).toBe(0)
    expect(html.stdout).toMatch(/nile\/run1, rho = 0\.\d{3} \(/)
    expect(html.stdout).not.toMatch(/, r = /)
  })
})
