/**
 * What a new participant hits and what the messages say (issue 32): an empty run folder, a JSON
 * Lines prediction written as a string, reversed-scale predictions, an STS-B run with a header
 * line, no gold and no data store, SemRel languages no run entered.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { examples, repoRoot, runCli } from "./support/cli.js"

let work: string
const sickGold = path.join(examples, "sick2014/SICK_test_annotated.txt")

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-newuser-messages-"))
})

afterAll(() => {
  if (work !== undefined) fs.rmSync(work, { recursive: true, force: true })
})

describe("an empty run folder", () => {
  it("validate and score say there is nothing to score, naming the folder, and exit 1 (text and JSON)", async () => {
    const empty = path.join(work, "empty")
    fs.mkdirSync(empty)
    for (const command of ["validate", "score"]) {
      const text = await runCli([command, "--task", "sick2014", "--gold", sickGold, empty])
      expect(text.code, `${command}: ${text.stdout}`).toBe(1)
      expect(text.stdout).toContain(`nothing to score: "${empty}" holds no run of sick2014`)
      expect(text.stdout).not.toContain("all valid")
      const json = await runCli([command, "--task", "sick2014", "--gold", sickGold, empty, "--json"])
      expect(json.code, command).toBe(1)
      expect(json.stderr).toContain(`nothing to score: "${empty}"`)
      if (command === "validate") expect((JSON.parse(json.stdout) as { valid: boolean }).valid).toBe(false)
    }
  })
})

describe("an edition file giving a position as a string (id: \"2\") in a headerless file", () => {
  it("is reported against format.id, saying to write the integer without quotes (exit 2)", async () => {
    const edition = path.join(work, "headerless.yaml")
    fs.writeFileSync(
      edition,
      [
        "id: headerless",
        "title: A headerless TSV task",
        "scale: { min: 0, max: 5 }",
        "submission: file",
        'format: { type: delimited, delimiter: "\\t", header: false, id: "2", score: 3 }',
        "datasets:",
        "  - { name: test, gold: gold.tsv, run: run.tsv }",
        "runLimit: 3",
        "ranking:",
        "  - { subtask: main, metric: spearman, aggregate: single }",
        "missingDataset: zero",
        "published: { style: r3 }",
        ""
      ].join("\n")
    )
    const run = await runCli(["validate", "--task", edition, "--gold", sickGold, sickGold])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`${edition}: format.id: "2" is a field name, but a file without a header (header: false) gives fields by 1-based position, an integer: write 2 without quotes`)
    expect(run.stderr).not.toContain("format.header")
  })
})

describe("an STS Benchmark run on the reversed scale, or with a header line", () => {
  // the STS Benchmark test gold of 300 pairs (as newuser.test.ts writes it) and a run for it
  const goldScores = Array.from({ length: 300 }, (_, i) => ((i * 7) % 26) / 5)
  const runScores = goldScores.map((g, i) => Math.round((g + ((i % 5) - 2) / 4) * 100) / 100)
  let gold: string
  const write = (name: string, lines: ReadonlyArray<string | number>) => {
    const file = path.join(work, name)
    fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(""))
    return file
  }
  beforeAll(() => {
    gold = write(
      "sts-test.csv",
      goldScores.map((g, i) => `main-captions\tMSRvid\t2012test\t${String(i).padStart(4, "0")}\t${g.toFixed(3)}\tA man plays ${i}.\tA person plays ${i}.`)
    )
  })

  it("every score negative: a hint that the direction looks reversed, beside the out-of-scale warning", async () => {
    const run = write("Negated_run1.txt", runScores.map((s) => -(Math.max(0, s) + 0.01)))
    const r = await runCli(["validate", "--task", "stsb", "--gold", gold, run])
    expect(r.stdout).toContain(`${run}: warning: every score is negative: the direction looks reversed`)
  })

  it("5 - score (a correlation of about -0.97): a hint that the direction looks reversed, with r", async () => {
    const run = write("Reversed_run1.txt", runScores.map((s) => Math.min(5, Math.max(0, Math.round((5 - s) * 100) / 100))))
    const r = await runCli(["validate", "--task", "stsb", "--gold", gold, run])
    expect(r.stdout).toMatch(new RegExp(`${run.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: warning: the scores correlate strongly negatively with the gold \\(Pearson r = -0\\.9\\d\\d\\): the direction looks reversed`))
    // a good run gets no such hint
    const good = write("Good_run1.txt", runScores)
    expect((await runCli(["validate", "--task", "stsb", "--gold", gold, good])).stdout).not.toContain("looks reversed")
  })

  it("a header line: says the text found and to remove the header line", async () => {
    const run = write("Header_run1.txt", ["prediction", ...runScores])
    const r = await runCli(["validate", "--task", "stsb", "--gold", gold, run])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`${run}:1: error: the score on line 1 is not a number: it looks like a header line; remove the header line`)
    expect(r.stdout).toContain('found "prediction"')
  })
})

describe("no gold and no data store", () => {
  it("the message names stseval data fetch, --gold, --data-root and STSEVAL_DATA", async () => {
    const empty = path.join(work, "no-store")
    fs.mkdirSync(empty)
    const r = await runCli(["rank", "--task", "sts2014", "--data-root", empty, empty])
    expect(r.code).toBe(2)
    for (const way of ["stseval data fetch sts2014", "--gold <file|folder>", "--data-root <folder>", "STSEVAL_DATA"]) expect(r.stderr).toContain(way)
  })

  it("codabench bundle reads the data store when --gold is absent, as every other command", async () => {
    const store = path.join(work, "store")
    fs.mkdirSync(path.join(store, "sick2014"), { recursive: true })
    fs.copyFileSync(sickGold, path.join(store, "sick2014", "SICK_test_annotated.txt"))
    const cli = path.join(work, "stseval.mjs")
    fs.writeFileSync(cli, "// not run here\n")
    const out = path.join(work, "bundle")
    const made = await runCli(["codabench", "bundle", "--task", "sick2014", "--data-root", store, "--out", out, "--cli", cli])
    expect(made.code, made.stderr).toBe(0)
    // the test phase is sealed: the store's gold is kept beside the bundle, not in it
    expect(fs.readFileSync(path.join(`${out}.gold`, "SICK_test_annotated.txt")).equals(fs.readFileSync(sickGold))).toBe(true)
    expect(fs.existsSync(path.join(out, "reference_data_test", "SICK_test_annotated.txt"))).toBe(false)
    const none = await runCli(["codabench", "bundle", "--task", "sick2014", "--data-root", path.join(work, "no-store"), "--out", path.join(work, "bundle2"), "--cli", cli])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("stseval data fetch sick2014")
  })
})

describe("what a library user and a maintainer read", () => {
  const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), "utf8").replace(/\s+/g, " ")
  it("README says that Engine.score needs @effect/platform-node and how to provide it", () => {
    const readme = read("README.md")
    expect(readme).toContain("`Engine.score` (and every library function that reads files) needs `@effect/platform-node`")
    expect(readme).toContain("`Engine.score(...).pipe(Effect.provide(NodeServices.layer))`")
  })

  it("README documents `release:check --keep`, and the release check does what it says (keeps and names its scratch folder)", () => {
    expect(read("README.md")).toContain("`--keep` it leaves its scratch folder")
    const main = read("tooling/release/src/main.ts")
    expect(main).toContain("--keep: the scratch folder is left at ${scratch}")
  })
})
