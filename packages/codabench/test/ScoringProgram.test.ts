/**
 * The bundle's scoring program run exactly as the Codabench compute worker runs it (see
 * support/worker.ts): the single-file CLI copied out of the repository, the `/app` layout, the
 * `command` of the bundle's metadata.yaml. `scores.json` must have a number for every leaderboard
 * column of the bundle's competition.yaml, equal to `stseval score --json` on the same run (and to
 * Pearson computed independently here, or to the official scorers' figures in ../shared when it is
 * there); a broken submission must fail with its reason and no stack trace or server path.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { beforeAll, describe, expect, it } from "vitest"
import * as Yaml from "yaml"
import { Bundle } from "../src/index.js"
import { pearson, run, scoreJson, semrel, sickExample, spearman, sts2017, stsb, writeSemRel, writeSickDev, writeSts2017, writeStsb } from "./support/fixtures.js"
import { buildCli, hasShared, repoRoot, runLikeWorker, sharedRoot, tempDir } from "./support/worker.js"

const exec = promisify(execFile)
if (!hasShared) console.warn(`codabench: ${sharedRoot} not found; the test against the real STS 2017 gold and the official scorers' figures is skipped`)

let work: string
let cli: string

beforeAll(async () => {
  work = tempDir()
  cli = await buildCli()
}, 120_000)

/** A bundle of `task` on a gold in ../shared, scoring a run folder of ../shared as the worker would. */
const onSharedData = async (task: string, gold: string, runFolder: string, leaderboard?: string) => {
  const bundle = path.join(work, `${task}-${leaderboard ?? "official"}-real-bundle`)
  await run(Bundle.writeBundle({ task, gold: path.join(sharedRoot, gold), out: bundle, cliBundle: cli, liveTest: true, leaderboard }))
  const runDir = path.join(sharedRoot, runFolder)
  return runLikeWorker(bundle, "reference_data_test", Object.fromEntries(fs.readdirSync(runDir).map((f) => [f, fs.readFileSync(path.join(runDir, f))])))
}

/** The leaderboard column keys of a bundle's competition.yaml, in order. */
const columnKeys = (bundle: string): ReadonlyArray<string> => {
  const yaml = Yaml.parse(fs.readFileSync(path.join(bundle, "competition.yaml"), "utf8")) as { leaderboards: Array<{ columns: Array<{ key: string; index: number }> }> }
  return yaml.leaderboards[0].columns.map((c) => c.key)
}

const expectNoServerPath = (text: string, app: string) => {
  expect(text).not.toContain(app)
  expect(text).not.toContain(work)
  expect(text).not.toContain(repoRoot)
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+\)?/)
}

/** The rows of an official scorer's reference table in ../shared/reference, as TAB-separated fields. */
const referenceRows = (name: string): Array<Array<string>> =>
  fs
    .readFileSync(path.join(sharedRoot, "reference", name), "utf8")
    .split("\n")
    .map((l) => l.split("\t"))

/** The SICK columns of a run file, read here from the header (independently of the formats package). */
const readSick = (file: string) => {
  const [head, ...rows] = fs.readFileSync(file, "utf8").trim().split(/\r?\n/)
  const names = head.split("\t")
  const id = names.indexOf("pair_ID")
  const rel = names.indexOf("relatedness_score")
  const ent = names.indexOf("entailment_judgment")
  return new Map(rows.map((r) => r.split("\t")).map((f) => [f[id], { relatedness: Number(f[rel]), entailment: f[ent] }]))
}

describe("SICK 2014 (examples/sick2014)", () => {
  let bundle: string

  it("`stseval codabench bundle` (the single-file CLI) writes a bundle with a development and a test phase, shipping itself", async () => {
    bundle = path.join(work, "sick-bundle")
    // A development gold: 300 pairs under pair IDs of their own, as an organiser's trial set would be.
    const devGold = writeSickDev(path.join(work, "sick-dev"))
    const { stdout } = await exec(process.execPath, [cli, "codabench", "bundle", "--task", "sick2014", "--gold", sickExample.gold, "--dev-gold", devGold, "--out", bundle, "--zip", "--live-test"], { cwd: work })
    expect(stdout).toContain("leaderboard official, ordered by relatedness_pearson: relatedness_pearson, relatedness_spearman, relatedness_mse, figures, entailment_accuracy")
    expect(fs.existsSync(`${bundle}.zip`)).toBe(true)
    expect(columnKeys(bundle)).toEqual(["relatedness_pearson", "relatedness_spearman", "relatedness_mse", "figures", "entailment_accuracy"])
    // Without --cli, the single-file CLI puts itself in the scoring program.
    expect(fs.readFileSync(path.join(bundle, "scoring_program/stseval.mjs")).equals(fs.readFileSync(cli))).toBe(true)
    expect((Yaml.parse(fs.readFileSync(path.join(bundle, "competition.yaml"), "utf8")) as { docker_image: string }).docker_image).toBe("node:24-bookworm-slim")
  }, 60_000)

  it("scores a run like `stseval score`: a number for every leaderboard column", async () => {
    const name = "MeaningFactory_run1primary.txt"
    const runFile = path.join(sickExample.runs, name)
    const result = await runLikeWorker(bundle, "reference_data_test", { [name]: fs.readFileSync(runFile) })
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(Object.keys(result.scores ?? {})).toEqual(columnKeys(bundle))
    const expected = await scoreJson("sick2014", sickExample.gold, runFile)
    expect(result.scores).toEqual({
      relatedness_pearson: expected.datasets["relatedness"].figures["pearson"],
      relatedness_spearman: expected.datasets["relatedness"].figures["spearman"],
      relatedness_mse: expected.datasets["relatedness"].figures["mse"],
      // every figure computed
      figures: 4,
      entailment_accuracy: expected.datasets["entailment"].figures["accuracy"]
    })
    // Independently: Pearson, MSE and accuracy over the pairs, matched by pair_ID.
    const gold = readSick(sickExample.gold)
    const sys = readSick(runFile)
    const ids = [...gold.keys()]
    const x = ids.map((i) => sys.get(i)!.relatedness)
    const y = ids.map((i) => gold.get(i)!.relatedness)
    expect(result.scores?.["relatedness_pearson"]).toBeCloseTo(pearson(x, y), 12)
    expect(result.scores?.["relatedness_mse"]).toBeCloseTo(x.reduce((a, v, i) => a + (v - y[i]) ** 2, 0) / x.length, 12)
    expect(result.scores?.["entailment_accuracy"]).toBeCloseTo((100 * ids.filter((i) => sys.get(i)!.entailment === gold.get(i)!.entailment).length) / ids.length, 10)
    // The official R scorer's figures for this run (The Meaning Factory's submission.txt), when ../shared is there.
    if (hasShared) {
      const row = referenceRows("sick-posttask-runs.official-R.tsv").find((r) => r.some((f) => f.includes("The_Meaning_Factory_pre-deadline/submission.txt")))!
      expect(result.scores?.["entailment_accuracy"]).toBeCloseTo(Number(row[1]), 10)
      expect(result.scores?.["relatedness_pearson"]).toBeCloseTo(Number(row[2]), 12)
      expect(result.scores?.["relatedness_spearman"]).toBeCloseTo(Number(row[3]), 12)
      expect(result.scores?.["relatedness_mse"]).toBeCloseTo(Number(row[4]), 12)
    } else console.warn("codabench: ../shared not found; the SICK run is checked against stseval and an independent computation only")
    expect(result.detailedResults).toContain("Your submission was scored")
    expect(fs.readdirSync(result.output).sort()).toEqual(["detailed_results.html", "scores.json"])
    // The signature of `stseval score --json` on the same gold, in the scoring output and the page.
    expect(expected.signature).toMatch(/^sick2014@\w+\|gold:\w+\|agg:/)
    expect(result.stdout.split("\n")).toContain(`signature: ${expected.signature}`)
    expect(result.detailedResults).toContain(`<code class="signature">${expected.signature.replace(/&/g, "&amp;")}</code>`)
  }, 60_000)

  it("rejects a malformed run: non-zero exit, no scores.json, the file, line and what was expected; no stack trace or server path", async () => {
    // Insight's w2v-text8-raw.txt: a 4th unnamed column on every row (the official R scorer silently shifted the columns).
    const name = "Insight_run2.txt"
    const result = await runLikeWorker(bundle, "reference_data_test", { [name]: fs.readFileSync(path.join(sickExample.runs, name)) })
    expect(result.code).toBe(1)
    expect(result.scores).toBeUndefined()
    expect(fs.existsSync(path.join(result.output, "metadata"))).toBe(false)
    expect(result.stderr).toContain("Your submission was not scored")
    expect(result.stdout).toMatch(/^signature: sick2014@\w+\|gold:\w+/m)
    expect(result.stderr).toMatch(/^ {2}Insight_run2\.txt:2: .*expected 3 TAB-separated fields/m)
    expectNoServerPath(result.stderr + result.stdout, result.app)
    expect(result.detailedResults).toContain("Insight_run2.txt")
    expectNoServerPath(result.detailedResults ?? "", result.app)
    // A rejected submission shows no figure (it does not count against the limit).
    expect(result.detailedResults).not.toContain("<svg")
    expect(result.detailedResults).not.toContain("Leaderboard")
  }, 60_000)
})

describe("STS 2017 (a small fixture of the seven tracks)", () => {
  it("scores every track and the primary mean as r x 100, equal to `stseval score` and to Pearson computed here", async () => {
    const data = writeSts2017(path.join(work, "sts2017"), [{ name: "Team", seed: 7, noise: 0.4 }])
    const bundle = path.join(work, "sts2017-bundle")
    await run(Bundle.writeBundle({ task: "sts2017", gold: data.gold, out: bundle, cliBundle: cli, liveTest: true, now: new Date("2017-01-09T00:00:00Z") }))
    expect(columnKeys(bundle)).toEqual(["official", ...sts2017.datasets.map((d) => d.name.replace(/[^a-z0-9]+/g, "_"))])
    const submission = Object.fromEntries(sts2017.datasets.map((d) => [d.run, fs.readFileSync(path.join(data.runs["Team"], d.run))]))
    const result = await runLikeWorker(bundle, "reference_data_test", submission)
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(Object.keys(result.scores ?? {})).toEqual(columnKeys(bundle))
    const expected = await scoreJson("sts2017", data.gold, data.runs["Team"])
    const here: Array<number> = []
    for (const d of sts2017.datasets) {
      const key = d.name.replace(/[^a-z0-9]+/g, "_")
      expect(result.scores?.[key]).toBe((expected.datasets[d.name].figures["pearson"] as number) * 100)
      const v = data.values["Team"][d.name]
      here.push(pearson(v.run, v.gold))
      expect(result.scores?.[key]).toBeCloseTo(100 * here[here.length - 1], 10)
    }
    expect(result.scores?.["official"]).toBe((expected.official[0].value as number) * 100)
    expect(result.scores?.["official"]).toBeCloseTo((100 * here.reduce((a, b) => a + b, 0)) / here.length, 10)
  }, 60_000)

  it.skipIf(!hasShared)("on the real STS 2017 gold, the synthetic runs score what the official scorer gives (../shared)", async () => {
    const result = await onSharedData("sts2017", "data/sts2017/gold", "data/runs/sts-synthetic/sts2017")
    expect(result.code).toBe(0)
    const reference = referenceRows("sts-synthetic-runs.official.tsv").filter((r) => r[0] === "sts2017")
    expect(reference).toHaveLength(7)
    for (const r of reference) expect(result.scores?.[r[1].replace(/[^a-z0-9]+/g, "_")]).toBeCloseTo(100 * Number(r[6]), 10)
    expect(result.scores?.["official"]).toBeCloseTo((100 * reference.reduce((a, r) => a + Number(r[6]), 0)) / 7, 10)
  }, 60_000)
})

describe("STS Benchmark (a small fixture)", () => {
  it("scores Pearson and Spearman x 100 under the keys `pearson` and `spearman`", async () => {
    const test = writeStsb(path.join(work, "stsb-test"), 11)
    const dev = writeStsb(path.join(work, "stsb-dev"), 12, 30)
    const bundle = path.join(work, "stsb-bundle")
    await run(Bundle.writeBundle({ task: "stsb", gold: test.gold, devGold: dev.gold, out: bundle, cliBundle: cli, liveTest: true }))
    expect(columnKeys(bundle)).toEqual(["pearson", "spearman"])
    const result = await runLikeWorker(bundle, "reference_data_test", { "sts-test.output.txt": fs.readFileSync(test.run) })
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    const expected = await scoreJson("stsb", test.gold, test.run)
    expect(result.scores).toEqual({ pearson: (expected.datasets["test"].figures["pearson"] as number) * 100, spearman: (expected.datasets["test"].figures["spearman"] as number) * 100 })
    expect(result.scores?.["pearson"]).toBeCloseTo(100 * pearson(test.values.run, test.values.gold), 10)
    expect(stsb.published.style).toBe("r100")
  }, 60_000)
})

describe("SemEval-2024 Task 1, track A (a small fixture of every language)", () => {
  it("the mean board: every language's Spearman (official) and Pearson beside the mean, equal to `stseval score` and to Spearman computed here; a run without every language fails, naming the mean", async () => {
    // The built-in edition without its published pair counts (the fixture is smaller).
    const edition = { ...semrel, datasets: semrel.datasets.map(({ pairs: _pairs, ...d }) => d) }
    const languages = edition.datasets.filter((d) => d.goldNotPublic === undefined).map((d) => d.name)
    const data = writeSemRel(path.join(work, "semrel"), edition, 30, languages)
    const bundle = path.join(work, "semrel-bundle")
    await run(Bundle.writeBundle({ task: edition, gold: data.gold, out: bundle, cliBundle: cli, liveTest: true, leaderboard: "mean" }))
    expect(columnKeys(bundle)).toEqual(["mean", ...languages.flatMap((l) => [l, `${l}_pearson`])])
    const submission = Object.fromEntries(fs.readdirSync(data.run).map((f) => [f, fs.readFileSync(path.join(data.run, f))]))
    const result = await runLikeWorker(bundle, "reference_data_test", submission)
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    const expected = await scoreJson(edition, data.gold, data.run)
    expect(result.scores).toEqual({
      mean: expected.aggregates["official"]["mean"]!.value,
      ...Object.fromEntries(languages.flatMap((l) => [[l, expected.datasets[l].figures["spearman"]], [`${l}_pearson`, expected.datasets[l].figures["pearson"]]]))
    })
    for (const l of ["amh", "eng"]) {
      expect(result.scores?.[l]).toBeCloseTo(spearman(data.values[l].run, data.values[l].gold), 12)
      expect(result.scores?.[`${l}_pearson`]).toBeCloseTo(pearson(data.values[l].run, data.values[l].gold), 12)
    }
    expect(result.scores?.["mean"]).toBeCloseTo(languages.reduce((a, l) => a + spearman(data.values[l].run, data.values[l].gold), 0) / languages.length, 12)
    expect(result.stdout.split("\n")).toContain(`signature: ${expected.signature}`)
    expect(result.detailedResults).toContain("Mean (unofficial)")
    // eng and amh only: no mean, so no place on a leaderboard ordered by it
    const partial = await runLikeWorker(bundle, "reference_data_test", { "pred_eng.csv": submission["pred_eng.csv"], "pred_amh.csv": submission["pred_amh.csv"] })
    expect(partial.code).toBe(1)
    expect(partial.scores).toBeUndefined()
    expect(partial.stderr).toContain("the leaderboard is ordered by Mean (unofficial) (mean), and it could not be computed")
  }, 60_000)

  it.skipIf(!hasShared)("on the real track A gold, a synthetic run scores what the organisers' evaluation.py gives (../shared)", async () => {
    // the competition for eng (one per language, as the task ranked): eng's gold only, Spearman first
    const result = await onSharedData("semrel2024-a", "data/semrel2024/track-a", "data/runs/semrel2024-synthetic/track-a-eng-sd0.05", "eng")
    expect(result.code).toBe(0)
    const row = referenceRows("semrel2024-synthetic-runs.official.tsv").find((r) => r[0] === "track-a-eng-sd0.05" && r[1] === "eng")!
    expect(result.scores?.["spearman"]).toBeCloseTo(Number(row[2]), 9)
    expect(Object.keys(result.scores ?? {})).toEqual(["spearman", "pearson"])
  }, 60_000)
})
