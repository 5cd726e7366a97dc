/**
 * MTEB predictions (`<task>_predictions.json`, built here from the format MTEB's
 * `AbsTask._save_task_predictions` writes) imported as runs: each imported run scores exactly like
 * the same scores given as a plain run (Pearson and Spearman from @stseval/metrics against the
 * gold), splits that do not match the gold are refused, and a submissions folder of one run per
 * model (run.json team = model name) is written. With ../shared, the official figures of the
 * synthetic SemRel runs are reproduced through an MTEB file.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Gold, Issue, Mteb, Registry, SemRel, Sts, Submissions, Text } from "@stseval/formats"
import { Pearson, Spearman } from "@stseval/metrics"

const here = path.dirname(fileURLToPath(import.meta.url))
const shared = path.resolve(here, "../../../../shared")
const hasShared = fs.existsSync(path.join(shared, "data", "semrel2024")) && fs.existsSync(path.join(shared, "reference"))
if (!hasShared) console.warn(`Mteb.test.ts: the ../shared check is skipped: ${shared}/data/semrel2024 is absent`)
const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>) => Effect.runPromise(effect.pipe(Effect.provide(NodeServices.layer)))

/** A predictions file as MTEB writes it (json.dump of the dict). */
const predictionsJson = (model: string, subsets: Record<string, Record<string, { cosine: ReadonlyArray<number>; similarity?: ReadonlyArray<number> | null }>>) =>
  JSON.stringify({
    mteb_model_meta: { model_name: model, revision: "0123abc" },
    ...Object.fromEntries(
      Object.entries(subsets).map(([subset, splits]) => [
        subset,
        Object.fromEntries(
          Object.entries(splits).map(([split, s]) => [
            split,
            {
              cosine_scores: s.cosine,
              manhattan_distances: s.cosine.map((x) => -10 * (1 - x)),
              euclidean_distances: s.cosine.map((x) => -(1 - x)),
              similarity_scores: s.similarity === undefined ? s.cosine : s.similarity
            }
          ])
        )
      ])
    )
  })

const file = (task: string, json: string) => {
  const parsed = Mteb.parse(json, `results/${task}${Mteb.SUFFIX}`)
  expect(parsed.issues).toEqual([])
  return parsed.value!
}

const edition = (id: string) => Registry.get(id)!

// A six-pair STS-B test gold whose mean gold score is MTEB's recorded one for STSBenchmark test
// (2.607916606236405): the last score is chosen to make it so, for the import's identity check.
const STSB_MEAN = 2.607916606236405
const stsbScores = [5, 3.8, 0.5, 2.25, 4]
stsbScores.push(6 * STSB_MEAN - stsbScores.reduce((a, b) => a + b, 0))
const stsbGold = Gold.goldFromTexts(edition("stsb"), [
  {
    dataset: "test",
    file: "sts-test.csv",
    content: stsbScores.map((s, i) => `main-news\theadlines\t2016\t${String(i).padStart(4, "0")}\t${s}\tSentence ${i}.\tOther ${i}.\n`).join("")
  }
])
const goldOf = (gold: Gold.Gold, name: string) => {
  const d = gold.datasets.find((x) => x.name === name)
  if (d?.kind !== "scores") throw new Error(`no gold for ${name}`)
  return d
}
const COSINE = [0.91, 0.7, 0.12, 0.55, 0.8, 0.3]
// SciPy, not this package: spearmanr(gold / 5, COSINE) = 0.942857142857143 (as MTEB computes
// cosine_spearman, on the gold normalised to 0-1), written by MTEB rounded to 6 decimals;
// pearsonr(gold, COSINE) = 0.9634697136838218; COSINE in the order [3, 0, 5, 1, 4, 2]: spearmanr 0.6
const SCIPY_STSB_SPEARMAN = 0.942857142857143
const SCIPY_STSB_SPEARMAN_6 = 0.942857
const SCIPY_STSB_PEARSON = 0.9634697136838218
const SHUFFLE = [3, 0, 5, 1, 4, 2]
const SCIPY_SHUFFLED_SPEARMAN = 0.6

/** A predictions file with MTEB's results file of its task beside it (as `Mteb.read` attaches it). */
const withResults = (f: Mteb.PredictionsFile, subset: string, cosineSpearman: number, split = "test"): Mteb.PredictionsFile => ({
  ...f,
  results: { task_name: f.task, scores: { [split]: [{ hf_subset: subset, main_score: cosineSpearman, cosine_spearman: cosineSpearman, languages: ["eng-Latn"] }] } }
})

const sameAsPlain = (imported: Float64Array, plain: ReadonlyArray<number>, gold: Float64Array) => {
  for (const metric of [Pearson.pearson, Spearman.spearman]) {
    const a = metric(imported, gold)
    expect(a._tag).toBe("Defined")
    expect(a).toEqual(metric(Float64Array.from(plain), gold))
  }
}

describe("reading MTEB predictions files", () => {
  it("decodes the model entry and every subset / split; the task is the file name", () => {
    const f = file("STS17", predictionsJson("org/model-a", { "en-en": { test: { cosine: [0.1, 0.2] } }, "ko-ko": { test: { cosine: [0.3] } } }))
    expect(f).toMatchObject({ task: "STS17", model: "org/model-a", revision: "0123abc" })
    expect(f.splits.map((s) => [s.subset, s.split, s.scores.cosine_scores.length])).toEqual([["en-en", "test", 2], ["ko-ko", "test", 1]])
  })

  it("refuses what is not STS predictions, with the field: NaN (Python's json.dump), no model entry, another task type, uneven lists", () => {
    const nan = Mteb.parse('{"mteb_model_meta": {"model_name": "m"}, "default": {"test": {"cosine_scores": [NaN]}}}', "x_predictions.json")
    expect(nan.value).toBeUndefined()
    expect(nan.issues[0]).toMatchObject({ severity: "error", code: "bad-json", file: "x_predictions.json" })
    expect(nan.issues[0].message).toMatch(/NaN/)
    expect(Mteb.parse('{"default": {}}', "x_predictions.json").issues[0]).toMatchObject({ code: "bad-json", field: "mteb_model_meta" })
    const classification = Mteb.parse('{"mteb_model_meta": {"model_name": "m"}, "default": {"test": [0, 1, 1]}}', "Banking77_predictions.json")
    expect(classification.issues[0]).toMatchObject({ code: "bad-json", field: "default.test" })
    expect(classification.value?.splits).toEqual([])
    const uneven = JSON.parse(predictionsJson("m", { default: { test: { cosine: [0.1, 0.2] } } })) as { default: { test: { euclidean_distances: Array<number> } } }
    uneven.default.test.euclidean_distances = [1]
    expect(Mteb.parse(JSON.stringify(uneven), "x_predictions.json").issues[0].message).toMatch(/different lengths/)
  })

  it("refuses a file of more numbers than MTEB's STS predictions hold, before parsing it (a 240 MB one held 4.13 GB), and counts none inside strings", () => {
    const list = (n: number) => `[${"0.5,".repeat(n - 1)}0.5]`
    const names = ["cosine_scores", "manhattan_distances", "euclidean_distances", "similarity_scores"]
    const split = (n: number) => `{${names.map((k) => `"${k}": ${list(n)}`).join(", ")}}`
    const text = (n: number) => `{"mteb_model_meta": {"model_name": "m", "revision": "r"}, "default": {"test": ${split(n)}}}`
    const big = Mteb.parse(text(1_000_001), "STSBenchmark_predictions.json")
    expect(big.value).toBeUndefined()
    expect(big.issues).toHaveLength(1)
    expect(big.issues[0]).toMatchObject({ code: "bad-json", file: "STSBenchmark_predictions.json" })
    expect(big.issues[0].message).toBe(
      "the file holds more than 4,000,000 numbers; MTEB's STS predictions have a few hundred thousand at most (four lists per split), so it was not read"
    )
    // exactly at the limit it is read; digits inside strings (the model's name) are not numbers
    const at = Mteb.parse(text(1_000_000).replace('"model_name": "m"', `"model_name": "${"1,".repeat(1000)}"`), "STSBenchmark_predictions.json")
    expect(at.issues).toEqual([])
    expect(at.value?.splits[0].scores.cosine_scores).toHaveLength(1_000_000)
  })

  it("scoresOf: cosine by default; the model's similarity falls back to cosine when null, as MTEB does", () => {
    const s = file("STSBenchmark", predictionsJson("m", { default: { test: { cosine: [0.5, 0.25], similarity: null } } })).splits[0].scores
    expect(Mteb.scoresOf(s)).toEqual([0.5, 0.25])
    expect(Mteb.scoresOf(s, "similarity")).toEqual([0.5, 0.25])
    expect(Mteb.scoresOf(s, "euclidean")).toEqual([-0.5, -0.75])
  })
})

describe("MTEB predictions as runs", () => {
  it("STSBenchmark test -> an stsb run that scores like the same scores as a plain run", () => {
    const f = withResults(file("STSBenchmark", predictionsJson("sentence-transformers/all-MiniLM-L6-v2", { default: { test: { cosine: COSINE } } })), "default", SCIPY_STSB_SPEARMAN_6)
    expect(Mteb.editionsCovered([f])).toEqual(["stsb"])
    const runs = Mteb.toRuns(edition("stsb"), [f], { gold: stsbGold })
    expect(runs.issues).toEqual([])
    const [r] = runs.value
    expect(r).toMatchObject({ edition: "stsb", model: "sentence-transformers/all-MiniLM-L6-v2", name: "sentence-transformers_all-MiniLM-L6-v2", datasets: ["test"] })
    expect(r.files.map((x) => x.path)).toEqual(["sentence-transformers_all-MiniLM-L6-v2/sts-test.output.txt", "sentence-transformers_all-MiniLM-L6-v2/run.json"])
    const output = Sts.parseOutput(Text.fromString(r.files[0].contents, r.files[0].path).value)
    sameAsPlain(output.value.scores, COSINE, goldOf(stsbGold, "test").scores)
    expect(JSON.parse(r.files[1].contents)).toMatchObject({ team: "sentence-transformers/all-MiniLM-L6-v2", run: 1, primary: true })
  })

  it("SemRel24STS eng -> pred_eng.csv by the gold's PairIDs, matched back like a plain run", () => {
    // eng gold with MTEB's recorded mean for SemRel24STS eng (0.5166153846153849): the last score makes it so
    const scores = [0.9, 0.25, 0.5, 0.4]
    scores.push(5 * 0.5166153846153849 - scores.reduce((a, b) => a + b, 0))
    const ids = ["ENG-test-0000", "ENG-test-0001", "ENG-test-0002", "ENG-test-0003", "ENG-test-0004"]
    const csv = `PairID,Text,Score\n${ids.map((id, i) => `${id},"a ${i}\nb ${i}",${scores[i]}`).join("\n")}\n`
    const gold = Gold.goldFromTexts(edition("semrel2024-a"), [{ dataset: "eng", file: "eng/eng_test_with_labels.csv", content: csv }])
    const cosine = [0.8, 0.1, 0.45, 0.5, 0.6]
    const f = file("SemRel24STS", predictionsJson("model-b", { eng: { test: { cosine } }, pan: { test: { cosine: [0.5] } } }))
    expect(Mteb.editionsCovered([f])).toEqual(["semrel2024-a", "semrel2024-b", "semrel2024-c"])
    const runs = Mteb.toRuns(edition("semrel2024-a"), [f], { gold })
    // no MTEB results file beside it: imported, with the order unchecked said
    expect(runs.issues.filter((i) => i.severity !== "info").map((i) => i.message)).toEqual([
      "results/SemRel24STS_predictions.json: eng.test matched to semrel2024-a eng by position, but the order could not be checked (MTEB's results file results/SemRel24STS.json is not beside the predictions): only the pair count and MTEB's mean gold score were checked, which a reordering keeps"
    ])
    const [r] = runs.value
    expect(r.files.map((x) => x.path)).toEqual(["model-b/pred_eng.csv", "model-b/run.json"])
    const g = goldOf(gold, "eng")
    const m = SemRel.matchRun(Text.fromString(r.files[0].contents, r.files[0].path).value, { file: g.file, pairIds: g.pairIds!, scores: g.scores })
    expect(m.issues).toEqual([])
    sameAsPlain(m.value.run, cosine, m.value.gold)
    // without the gold there are no PairIDs to write: an error, nothing written
    const blind = Mteb.toRuns(edition("semrel2024-a"), [f])
    expect(blind.value).toEqual([])
    expect(blind.issues[0]).toMatchObject({ severity: "error", code: "missing-dataset", field: "eng" })
  })

  it("refuses a split that is not our gold: another pair count, another mean gold score", () => {
    const short = file("STSBenchmark", predictionsJson("m", { default: { test: { cosine: COSINE.slice(1) } } }))
    const r1 = Mteb.toRuns(edition("stsb"), [short], { gold: stsbGold })
    expect(r1.value).toEqual([])
    expect(r1.issues[0]).toMatchObject({ severity: "error", code: "length-mismatch", expected: "6 predictions", found: "5" })
    const other = Gold.goldFromTexts(edition("stsb"), [
      { dataset: "test", file: "sts-test.csv", content: COSINE.map((s, i) => `g\tf\t2016\t${i}\t${5 * s}\ta\tb\n`).join("") }
    ])
    const r2 = Mteb.toRuns(edition("stsb"), [file("STSBenchmark", predictionsJson("m", { default: { test: { cosine: COSINE } } }))], { gold: other })
    expect(r2.value).toEqual([])
    expect(r2.issues[0].message).toMatch(/is not MTEB's STSBenchmark default: mean gold score/)
  })

  it("says why STS12-16 and SICK-R are not imported", () => {
    const sts12 = file("STS12", predictionsJson("m", { default: { test: { cosine: [0.5, 0.6] } } }))
    const r = Mteb.toRuns(edition("sts2012"), [sts12])
    expect(r.value).toEqual([])
    expect(r.issues[0]).toMatchObject({ severity: "warning", found: "STS12" })
    expect(r.issues[0].message).toMatch(/concatenated/)
    expect(Object.keys(Mteb.unsupported)).toEqual(["STS12", "STS13", "STS14", "STS15", "STS16", "SICK-R"])
  })

  it("writes a submissions folder of one run per model, which discover reads with team = model name", async () => {
    const a = file("STSBenchmark", predictionsJson("org/model-a", { default: { test: { cosine: COSINE } } }))
    const b = file("STSBenchmark", predictionsJson("model-b", { default: { test: { cosine: COSINE.map((x) => 1 - x) } } }))
    const runs = Mteb.toRuns(edition("stsb"), [a, b], { gold: stsbGold })
    expect(runs.value.map((r) => r.name)).toEqual(["model-b", "org_model-a"])
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-mteb-"))
    try {
      const written = await run(Mteb.write(dir, runs.value))
      expect(written).toHaveLength(4)
      const found = await run(Submissions.discover(dir, edition("stsb")))
      expect(found.runs.map((x) => [x.meta.team, x.meta.run, x.files.map((f) => f.name)])).toEqual([
        ["model-b", 1, ["sts-test.output.txt"]],
        ["org/model-a", 1, ["sts-test.output.txt"]]
      ])
      expect(found.issues).toEqual([])
      expect(found.runs.flatMap((x) => x.issues).filter((i) => i.severity !== "info")).toEqual([])
      // read back from the folder MTEB would have written
      fs.writeFileSync(path.join(dir, "STSBenchmark_predictions.json"), predictionsJson("org/model-a", { default: { test: { cosine: COSINE } } }))
      const read = await run(Mteb.read(dir))
      expect(read.issues).toEqual([])
      expect(read.value.map((f) => [f.task, f.model])).toEqual([["STSBenchmark", "org/model-a"]])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("Mteb.write: never over an existing run, names a submissions folder accepts", () => {
  it("a second import into the same folder writes nothing and names the run folders already there", async () => {
    const a = file("STSBenchmark", predictionsJson("org/model-a", { default: { test: { cosine: COSINE } } }))
    const runs = Mteb.toRuns(edition("stsb"), [a], { gold: stsbGold })
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-mteb-"))
    try {
      await run(Mteb.write(dir, runs.value))
      const target = path.join(dir, "org_model-a", "sts-test.output.txt")
      fs.writeFileSync(target, "edited by hand\n")
      const again = await Effect.runPromiseExit(Mteb.write(dir, runs.value).pipe(Effect.provide(NodeServices.layer)))
      expect(again._tag).toBe("Failure")
      expect(JSON.stringify(again)).toContain("RunExists")
      expect(JSON.stringify(again)).toContain("nothing was written")
      expect(fs.readFileSync(target, "utf8")).toBe("edited by hand\n")
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("a 220-character model name: a run folder name of at most 100 characters and a run.json team rank accepts; two such names stay two teams", async () => {
    const long = `org/${"m".repeat(216)}`
    const other = `org/${"m".repeat(215)}x`
    const files = [long, other].map((m) => file("STSBenchmark", predictionsJson(m, { default: { test: { cosine: COSINE } } })))
    const runs = Mteb.toRuns(edition("stsb"), files, { gold: stsbGold })
    expect(runs.value).toHaveLength(2)
    for (const r of runs.value) expect(r.name.length).toBeLessThanOrEqual(100)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-mteb-"))
    try {
      await run(Mteb.write(dir, runs.value))
      const found = await run(Submissions.discover(dir, edition("stsb")))
      expect(found.runs.flatMap((x) => x.issues).filter((i) => i.severity === "error")).toEqual([])
      const teams = found.runs.map((x) => x.meta.team)
      expect(teams.every((t) => t.length <= Submissions.MAX_TEAM_LENGTH && t.startsWith("org/mmmm"))).toBe(true)
      expect(new Set(teams.map(Submissions.teamKey)).size).toBe(2)
      expect(found.runs.every((x) => x.files.length === 1 && x.meta.identityUnknown === undefined)).toBe(true)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe.skipIf(!hasShared)("an MTEB file of a synthetic SemRel run scores like the run (official figure to 1e-9)", () => {
  it("track-a-eng-sd0.05 through SemRel24STS_predictions.json: Spearman 0.955930031578972", async () => {
    const a = edition("semrel2024-a")
    const gold = await run(Gold.loadGold({ ...a, datasets: a.datasets.filter((d) => d.name === "eng") }, path.join(shared, "data", "semrel2024", "track-a")))
    const g = goldOf(gold, "eng")
    // the run's predictions in the gold's (= the Hugging Face dataset's) order
    const runFile = path.join(shared, "data", "runs", "semrel2024-synthetic", "track-a-eng-sd0.05", "pred_eng.csv")
    const plain = SemRel.matchRun(Text.decode(new Uint8Array(fs.readFileSync(runFile)), runFile).value, { file: g.file, pairIds: g.pairIds!, scores: g.scores })
    expect(Issue.hasErrors(plain.issues)).toBe(false)
    // with MTEB's results file beside it: its cosine Spearman, the official figure rounded to 6 decimals as MTEB writes it
    const f = withResults(file("SemRel24STS", predictionsJson("synthetic", { eng: { test: { cosine: Array.from(plain.value.run) } } })), "eng", 0.95593)
    const runs = Mteb.toRuns(a, [f], { gold })
    expect(runs.issues).toEqual([])
    expect(runs.value[0].figures[0]).toMatchObject({ orderChecked: true, official: { metric: "spearman" } })
    const written = runs.value[0].files[0]
    const m = SemRel.matchRun(Text.fromString(written.contents, written.path).value, { file: g.file, pairIds: g.pairIds!, scores: g.scores })
    const rho = Spearman.spearman(m.value.gold, m.value.run)
    if (rho._tag !== "Defined") throw new Error(rho.reason)
    expect(Math.abs(rho.value - 0.955930031578972)).toBeLessThan(1e-9)
  })
})

describe("the order of MTEB predictions (issue 24: a shuffled STS-B file imported with exit 0 and scored r = 0.008)", () => {
  const predictions = (cosine: ReadonlyArray<number>) => file("STSBenchmark", predictionsJson("m", { default: { test: { cosine } } }))

  it("with MTEB's results file: reproduces its cosine Spearman and names both figures (MTEB's main score, stsb's official Pearson)", () => {
    const runs = Mteb.toRuns(edition("stsb"), [withResults(predictions(COSINE), "default", SCIPY_STSB_SPEARMAN_6)], { gold: stsbGold })
    expect(runs.issues).toEqual([])
    const [figures] = runs.value[0].figures
    expect(figures).toMatchObject({ dataset: "test", orderChecked: true, mteb: { field: "cosine_spearman", value: SCIPY_STSB_SPEARMAN_6, file: "results/STSBenchmark.json" } })
    expect(figures.spearman).toBeCloseTo(SCIPY_STSB_SPEARMAN, 12)
    expect(figures.official.metric).toBe("pearson")
    expect(figures.official.value).toBeCloseTo(SCIPY_STSB_PEARSON, 12)
  })

  it("refuses predictions in another order than the gold's: their Spearman is not MTEB's", () => {
    const shuffled = SHUFFLE.map((i) => COSINE[i])
    const runs = Mteb.toRuns(edition("stsb"), [withResults(predictions(shuffled), "default", SCIPY_STSB_SPEARMAN_6)], { gold: stsbGold })
    expect(runs.value).toEqual([])
    expect(runs.issues).toHaveLength(1)
    expect(runs.issues[0]).toMatchObject({ severity: "error", field: "default.test", expected: `cosine_spearman ${SCIPY_STSB_SPEARMAN_6} (MTEB's)`, found: SCIPY_SHUFFLED_SPEARMAN.toFixed(6) })
    expect(runs.issues[0].message).toContain("the predictions are not in the gold's order")
  })

  it("without the results file, or without the gold: imported, saying the order could not be checked", () => {
    const bare = Mteb.toRuns(edition("stsb"), [predictions(COSINE)], { gold: stsbGold })
    expect(bare.value).toHaveLength(1)
    expect(bare.value[0].figures[0]).toMatchObject({ orderChecked: false, mteb: undefined, official: { metric: "pearson" } })
    expect(bare.issues.map((i) => [i.severity, i.message])).toEqual([
      [
        "warning",
        "results/STSBenchmark_predictions.json: default.test matched to stsb test by position, but the order could not be checked (MTEB's results file results/STSBenchmark.json is not beside the predictions): only the pair count and MTEB's mean gold score were checked, which a reordering keeps"
      ]
    ])
    // without the gold only the published pair count (1379) can be checked
    const blind = Mteb.toRuns(edition("stsb"), [withResults(predictions(Array.from({ length: 1379 }, (_, i) => (i * 7) % 13)), "default", 0.5)])
    expect(blind.value).toHaveLength(1)
    expect(blind.issues.map((i) => i.message)).toEqual([expect.stringContaining("the order could not be checked (the gold was not at hand)")])
  })

  it("STS17: says at import that MTEB has no track 4b, so an imported run never has an official figure", () => {
    const f = file("STS17", predictionsJson("m", { "en-en": { test: { cosine: Array.from({ length: 250 }, (_, i) => (i * 37) % 101) } } }))
    const runs = Mteb.toRuns(edition("sts2017"), [f])
    expect(runs.value).toHaveLength(1)
    const note = runs.issues.find((i) => i.code === "missing-dataset")
    expect(note).toMatchObject({ severity: "warning", field: "track4b.es-en" })
    expect(note?.message).toBe("MTEB has no split for track4b.es-en of sts2017: so an imported sts2017 run never has an official figure (it needs every dataset); its per-dataset figures are scored")
  })

  it("read: finds MTEB's <task>.json beside the predictions and attaches it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-mteb-results-"))
    try {
      fs.writeFileSync(path.join(dir, `STSBenchmark${Mteb.SUFFIX}`), predictionsJson("m", { default: { test: { cosine: COSINE } } }))
      // as TaskResult.to_disk writes it (mteb/results/task_result.py), other fields included
      const results = {
        dataset_revision: "b0fddb56ed78048fa8b90373c8a3cfc37b684831",
        task_name: "STSBenchmark",
        mteb_version: "2.20.0",
        scores: { test: [{ pearson: 0.963470, spearman: 0.942857, cosine_pearson: 0.963470, cosine_spearman: 0.942857, manhattan_pearson: 0.9, manhattan_spearman: 0.9, euclidean_pearson: 0.9, euclidean_spearman: 0.9, main_score: 0.942857, hf_subset: "default", languages: ["eng-Latn"] }] },
        evaluation_time: 1.5,
        kg_co2_emissions: null
      }
      fs.writeFileSync(path.join(dir, "STSBenchmark.json"), JSON.stringify(results, null, 2))
      const read = await run(Mteb.read(dir))
      expect(read.issues).toEqual([])
      expect(read.value[0].results?.scores["test"]?.[0]).toMatchObject({ hf_subset: "default", main_score: 0.942857, cosine_spearman: 0.942857 })
      fs.writeFileSync(path.join(dir, "STSBenchmark.json"), '{"task_name": "STSBenchmark", "scores": {"test": [{"hf_subset": "default"}]}}')
      const bad = await run(Mteb.read(dir))
      expect(bad.issues[0]).toMatchObject({ severity: "error", code: "bad-json" })
      expect(bad.value[0].results).toBeUndefined()
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
