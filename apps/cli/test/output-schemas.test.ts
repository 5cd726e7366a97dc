/**
 * The JSON that compare, significance, report and the watcher print, validated against the
 * schemas documented in docs/schemas/ (draft 2020-12, objects closed): the CLI, run in-process
 * on the SICK data the repository ships (and on the public STS 2017 data when ../shared is there).
 */
import { Ajv2020 } from "ajv/dist/2020.js"
import type { ValidateFunction } from "ajv/dist/2020.js"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { examples, hasShared, repoRoot, runCli, shared } from "./support/cli.js"

const schemaDir = path.join(repoRoot, "docs/schemas")
const ajv = new Ajv2020({ allErrors: true, strict: true })
const validators = new Map<string, ValidateFunction>()
const validatorOf = (file: string): ValidateFunction => {
  let v = validators.get(file)
  if (v === undefined) {
    v = ajv.compile(JSON.parse(fs.readFileSync(path.join(schemaDir, file), "utf8")) as object)
    validators.set(file, v)
  }
  return v
}
/** The schema's complaints about a document (empty: valid). */
const problems = (file: string, doc: unknown): Array<string> => {
  const v = validatorOf(file)
  return v(doc) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)}`)
}
const expectValid = (file: string, doc: unknown) => expect(problems(file, doc)).toEqual([])

const sickGold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const submissions = path.join(examples, "sick2014/submissions")
const run = (name: string) => path.join(submissions, name)
const sick = ["--task", "sick2014", "--gold", sickGold]

const tmp = scratchDir("output-schemas")

/** Runs the CLI, checks the exit code, parses stdout as one JSON document. */
const json = async (args: ReadonlyArray<string>, code = 0): Promise<Record<string, unknown>> => {
  const r = await runCli(args)
  expect(r.code, r.stderr).toBe(code)
  return JSON.parse(r.stdout) as Record<string, unknown>
}
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>

describe("docs/schemas: the output documents' schemas", () => {
  it.each(["compare", "significance", "report", "leaderboard", "watch-status"])("%s.schema.json is a draft 2020-12 schema that compiles", (name) => {
    const schema = JSON.parse(fs.readFileSync(path.join(schemaDir, `${name}.schema.json`), "utf8")) as Record<string, unknown>
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
    expect(() => validatorOf(`${name}.schema.json`)).not.toThrow()
  })
})

describe("stseval compare --json matches compare.schema.json", () => {
  it("Williams' t on relatedness and McNemar on entailment", async () => {
    const doc = await json(["compare", ...sick, run("MeaningFactory_run1primary.txt"), run("Baseline-overlap_run1primary.txt"), "--json"])
    expect(doc.entailment).toBeDefined()
    expectValid("compare.schema.json", doc)
  })

  it("bootstrap (interval and signature) and permutation", async () => {
    for (const test of ["bootstrap", "permutation"]) {
      const doc = await json(["compare", ...sick, run("Insight_run1primary.txt"), run("MeaningFactory_run1primary.txt"), "--test", test, "--resamples", "200", "--json"])
      expectValid("compare.schema.json", doc)
    }
  })

  it("nothing comparable (exit 1): skipped datasets and the runs' errors", async () => {
    const doc = await json(["compare", ...sick, run("MeaningFactory_run2.txt"), run("Insight_run2.txt"), "--json"], 1)
    expect(doc.skipped).not.toEqual([])
    expectValid("compare.schema.json", doc)
  })

  it("a test that cannot be computed is listed in errors (exit 1)", async () => {
    const doc = await json(["compare", ...sick, run("Insight_run1primary.txt"), run("MeaningFactory_run1primary.txt"), "--metric", "spearman", "--test", "williams1959", "--json"], 1)
    expect(doc.errors).not.toEqual([])
    expectValid("compare.schema.json", doc)
  })

  it("the schema rejects an unknown field, a missing field and a mistyped one", async () => {
    const doc = await json(["compare", ...sick, run("MeaningFactory_run1primary.txt"), run("Baseline-overlap_run1primary.txt"), "--json"])
    expect(problems("compare.schema.json", { ...doc, extra: 1 })).not.toEqual([])
    const { runA: _runA, ...withoutRunA } = doc
    expect(problems("compare.schema.json", withoutRunA)).not.toEqual([])
    const rows = doc.datasets as Array<{ pairs: number }>
    expect(problems("compare.schema.json", { ...doc, datasets: [{ ...rows[0], pairs: "4927" }] })).not.toEqual([])
  })
})

describe("stseval significance --json matches significance.schema.json", () => {
  it("primary runs against the best (Williams' t)", async () => {
    const doc = await json(["significance", ...sick, submissions, "--json"])
    expectValid("significance.schema.json", doc)
  })

  it("every run, every pair, Holm, bootstrap: groups, rank ranges, runs left out", async () => {
    const doc = await json(["significance", ...sick, submissions, "--all-runs", "--against", "all", "--correction", "holm", "--test", "bootstrap", "--resamples", "200", "--json"])
    const [test] = doc.tests as Array<{ excluded: Array<unknown>; runs: Array<Record<string, unknown>> }>
    expect(test.excluded).not.toEqual([])
    expect(test.runs[0]).toHaveProperty("rankRange")
    expectValid("significance.schema.json", doc)
    expect(problems("significance.schema.json", { ...doc, tests: [{ ...test, runs: [{ ...test.runs[0], extra: true }] }] })).not.toEqual([])
  })

  it("every pair as records (--records), and the compact matrix of a bootstrap's intervals", async () => {
    const records = await json(["significance", ...sick, submissions, "--against", "all", "--records", "--json"])
    expectValid("significance.schema.json", records)
    const matrix = await json(["significance", ...sick, submissions, "--against", "all", "--test", "bootstrap", "--resamples", "200", "--json"])
    const [test] = matrix.tests as Array<{ matrix: Record<string, unknown> }>
    // the marks' rule corrects by default (Holm, as report): the adjusted p-values are there
    expect(Object.keys(test.matrix)).toEqual(["pValue", "adjustedP", "statistic", "ciLow", "ciHigh"])
    expectValid("significance.schema.json", matrix)
    expect(problems("significance.schema.json", { ...matrix, tests: [{ ...test, matrix: { ...test.matrix, pValue: [["0.5"]] } }] })).not.toEqual([])
  })

  it("against a named run", async () => {
    const doc = await json(["significance", ...sick, submissions, "--against", "Insight/run1", "--json"])
    expectValid("significance.schema.json", doc)
  })
})

describe("stseval report --format json matches report.schema.json", () => {
  it("SICK: tables 7 and 6 with scatter data and p-value matrices", async () => {
    const doc = await json(["report", ...sick, submissions, "--format", "json"])
    expect((doc.tables as Array<{ id: string }>).map((t) => t.id)).toEqual(["sick2014-table7", "sick2014-table6"])
    expectValid("report.schema.json", doc)
  })

  it("one layout, every run, written with --out", async () => {
    const out = path.join(tmp, "report.json")
    const r = await runCli(["report", ...sick, submissions, "--format", "json", "--layout", "sick2014-table7", "--all-runs", "--out", out])
    expect(r.code, r.stderr).toBe(0)
    const doc = readJson(out)
    expectValid("report.schema.json", doc)
    const table = (doc.tables as Array<Record<string, unknown>>)[0]
    expect(problems("report.schema.json", { ...doc, tables: [{ ...table, wide: "no" }] })).not.toEqual([])
  })
})

describe("stseval watch --once: leaderboard.json and status.json match their schemas", () => {
  it("the full and the public board, and the status", async () => {
    const out = path.join(tmp, "board")
    const r = await runCli(["watch", ...sick, submissions, "--out", out, "--once"])
    expect(r.code, r.stderr).toBe(0)
    const board = readJson(path.join(out, "leaderboard.json"))
    expect(board.view).toBe("full")
    expectValid("leaderboard.schema.json", board)
    expectValid("leaderboard.schema.json", readJson(path.join(out, "leaderboard.public.json")))
    const status = readJson(path.join(out, "status.json"))
    expectValid("watch-status.schema.json", status)
    const { runs: _runs, ...withoutRuns } = board
    expect(problems("leaderboard.schema.json", withoutRuns)).not.toEqual([])
    expect(problems("watch-status.schema.json", { ...status, phase: "paused" })).not.toEqual([])
  })

  it("hidden phase, deadline and run limit: flags, unranked runs, the public view without figures", async () => {
    const out = path.join(tmp, "hidden")
    const r = await runCli(["watch", ...sick, submissions, "--out", out, "--once", "--hidden", "--deadline", "2014-03-31T23:59:00Z", "--run-limit", "1"])
    expect(r.code, r.stderr).toBe(0)
    expectValid("leaderboard.schema.json", readJson(path.join(out, "leaderboard.json")))
    const pub = readJson(path.join(out, "leaderboard.public.json"))
    expect(pub).toMatchObject({ view: "public", hidden: true, rankings: [] })
    expectValid("leaderboard.schema.json", pub)
    expectValid("watch-status.schema.json", readJson(path.join(out, "status.json")))
  })
})

describe.skipIf(!hasShared)("STS 2017 (public data in ../shared): per-track rows and the aggregate", () => {
  const data = path.join(shared, "data")
  const sts = ["--task", "sts2017", "--gold", path.join(data, "sts2017/gold")]
  const folder = path.join(tmp, "sts2017")

  it("compare, significance and report on a synthetic run and the token-cosine baseline", async () => {
    fs.mkdirSync(folder, { recursive: true })
    fs.cpSync(path.join(data, "runs/sts-synthetic/sts2017"), path.join(folder, "Synth_run1primary"), { recursive: true })
    const made = await runCli(["baseline", "tokencos", "--task", "sts2017", "--data-root", data, "--out", folder])
    expect(made.code, made.stderr).toBe(0)
    const runs = ["Synth_run1primary", "tokencos_run1primary"].map((r) => path.join(folder, r))

    const compared = await json(["compare", ...sts, ...runs, "--resamples", "200", "--json"])
    expect(compared.aggregate).toBeDefined()
    expectValid("compare.schema.json", compared)

    const ranked = await json(["significance", ...sts, folder, "--resamples", "200", "--json"])
    expect((ranked.tests as Array<{ ranking: string; aggregate?: string }>).map((t) => [t.ranking, t.aggregate])).toEqual([["official", "unweighted"]])
    expectValid("significance.schema.json", ranked)

    expectValid("report.schema.json", await json(["report", ...sts, folder, "--format", "json"]))
  })
})
