/**
 * What a new participant and organiser hit (issue 24), in-process: an STS Benchmark run written as
 * `index<TAB>score`, the hints for a decimal comma and a wrong separator, the true count of a
 * file's errors in `codabench score`, where a relative path was resolved from, each reason said
 * once, tables that fit the terminal, and `rank`'s exit code as the docs give it.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { examples, repoRoot, runCli } from "./support/cli.js"

let work: string
let gold: string
/** The STS Benchmark test gold of 300 pairs and the scores of a run for it. */
const goldScores = Array.from({ length: 300 }, (_, i) => ((i * 7) % 26) / 5)
const runScores = goldScores.map((g, i) => Math.round((g + ((i % 5) - 2) / 4) * 100) / 100)
const writeRun = (name: string, lines: ReadonlyArray<string>) => {
  const file = path.join(work, name)
  fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(""))
  return file
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-newuser-"))
  gold = path.join(work, "sts-test.csv")
  fs.writeFileSync(gold, goldScores.map((g, i) => `main-captions\tMSRvid\t2012test\t${String(i).padStart(4, "0")}\t${g.toFixed(3)}\tA man plays ${i}.\tA person plays ${i}.\n`).join(""))
})

afterAll(() => {
  if (work !== undefined) fs.rmSync(work, { recursive: true, force: true })
})

describe("an STS run written as index<TAB>score (GLUE's habit, without GLUE's header)", () => {
  it("is an error naming the file and line, saying the first column holds line numbers and how to fix it: exit 1, no figure", async () => {
    for (const start of [0, 1]) {
      const run = writeRun(`Team_run${start + 1}.txt`, runScores.map((s, i) => `${i + start}\t${s}`))
      const text = await runCli(["score", "--task", "stsb", "--gold", gold, run])
      expect(text.code).toBe(1)
      expect(text.stdout).toContain(
        `${run}:1: error: the first column holds line numbers (${start}, ${start + 1}, ${start + 2}, …), not scores: a line of this file is a score and an optional TAB confidence, so each line's number would be read as its score; write the scores alone, one per line in the order of the input, or use GLUE's layout: STS-B.tsv with the header line index<TAB>prediction (expected score [TAB confidence], found "${start}\\t${runScores[0]}")`
      )
      const json = JSON.parse((await runCli(["score", "--task", "stsb", "--gold", gold, run, "--json"])).stdout) as {
        runs: Array<{ status: string; errors: Array<{ code: string; line: number }> }>
      }
      expect(json.runs[0].status).toBe("failed")
      expect(json.runs[0].errors.map((e) => [e.code, e.line])).toEqual([["line-numbers", 1]])
    }
  })

  it("in an STS 2012-2017 run too (the same format's optional confidence column)", async () => {
    const dir = path.join(work, "sts2017")
    fs.mkdirSync(path.join(dir, "Team_run1"), { recursive: true })
    fs.writeFileSync(path.join(dir, "STS.gs.track5.en-en.txt"), "1\n2\n3\n4\n5\n")
    fs.writeFileSync(path.join(dir, "Team_run1/STS.output.track5.en-en.txt"), "0\t1.2\n1\t2.5\n2\t2.9\n3\t4.1\n4\t4.4\n")
    const text = await runCli(["validate", "--task", "sts2017", "--gold", dir, path.join(dir, "Team_run1")])
    expect(text.code).toBe(1)
    expect(text.stdout).toMatch(/STS\.output\.track5\.en-en\.txt:1: error: the first column holds line numbers \(0, 1, 2, …\), not scores: .* one per line in the order of the input \(expected/)
  })
})

describe("hints for the common mistakes", () => {
  it("a decimal comma gets 'use \".\" as the decimal point'; ';' where a TAB is expected gets 'fields must be separated by a TAB'", async () => {
    const comma = writeRun("Comma_run1.txt", runScores.map((s) => String(s).replace(".", ",")))
    const semi = writeRun("Semi_run1.txt", runScores.map((s) => `${s};90`))
    const a = await runCli(["score", "--task", "stsb", "--gold", gold, comma])
    expect(a.code).toBe(1)
    expect(a.stdout).toContain(`${comma}:1: error: the score on line 1 is not a number; use "." as the decimal point (expected a number, found "${String(runScores[0]).replace(".", ",")}")`)
    const b = await runCli(["score", "--task", "stsb", "--gold", gold, semi])
    expect(b.code).toBe(1)
    expect(b.stdout).toContain(`${semi}:1: error: the score on line 1 is not a number; fields must be separated by a TAB, not ";" (expected a number, found "${runScores[0]};90")`)
  })
})

describe("codabench score counts every error", () => {
  it("250 bad lines: the summary says 250 errors and the log the true total, though 50 of each kind are listed", async () => {
    const bundle = path.join(work, "bundle")
    const cli = path.join(work, "stseval.mjs")
    fs.writeFileSync(cli, "// not run here\n")
    expect((await runCli(["codabench", "bundle", "--task", "stsb", "--gold", gold, "--out", bundle, "--cli", cli, "--live-test"])).code).toBe(0)
    const input = path.join(work, "app/input")
    fs.cpSync(path.join(bundle, "reference_data_test"), path.join(input, "ref"), { recursive: true })
    fs.mkdirSync(path.join(input, "res"), { recursive: true })
    // the first 250 lines with a decimal comma, the other 50 right
    fs.writeFileSync(path.join(input, "res/sts-test.output.txt"), runScores.map((s, i) => `${i < 250 ? String(s.toFixed(2)).replace(".", ",") : s}\n`).join(""))
    const output = path.join(work, "app/output")
    const scored = await runCli(["codabench", "score", input, output])
    expect(scored.code).toBe(1)
    const lines = scored.stderr.trimEnd().split("\n")
    expect(lines[0]).toBe("Your submission was not scored: 250 errors (the first listed below). Fix them and submit again; a submission that fails does not count against your limit.")
    expect(lines.at(-1)).toBe("  ... 1 more reason, 250 errors in all (see the detailed results)")
    expect(lines.filter((l) => l.includes("use \".\" as the decimal point"))).toHaveLength(50)
    const html = fs.readFileSync(path.join(output, "detailed_results.html"), "utf8")
    expect(html).toContain("250 errors (the first listed below)")
    expect(html).toContain("200 more lines with the same problem")
  })
})

describe("a relative path that does not exist", () => {
  it("says from which folder it was resolved (runs and --gold)", async () => {
    const run = await runCli(["score", "--task", "stsb", "--gold", gold, "runs/no-such-run.txt"])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`runs/no-such-run.txt: no such file or folder (resolved from ${process.cwd()})`)
    const goldMissing = await runCli(["score", "--task", "stsb", "--gold", "no-such-gold.csv", path.join(examples, "sick2014")])
    expect(goldMissing.code).toBe(2)
    expect(goldMissing.stderr).toContain(`--gold: no-such-gold.csv does not exist (resolved from ${process.cwd()})`)
    // an absolute path is its own answer
    const absolute = await runCli(["score", "--task", "stsb", "--gold", gold, path.join(work, "nothing.txt")])
    expect(absolute.stderr).toContain(`${path.join(work, "nothing.txt")}: no such file or folder\n`)
  })
})

describe("rank's exit code, as the code and every doc give it", () => {
  const demo = ["rank", "--all-runs", "--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), path.join(examples, "sick2014/submissions")]

  it("the demo (two failed runs) exits 0, --strict exits 1; README, docs/cli.md and rank --help say so", async () => {
    expect((await runCli(demo)).code).toBe(0)
    expect((await runCli([...demo, "--strict"])).code).toBe(1)
    const flat = (file: string) => fs.readFileSync(path.join(repoRoot, file), "utf8").replace(/\s+/g, " ")
    const readme = flat("README.md")
    expect(readme).toContain("`rank` (so the demo), `report` and `watch` exit 0 once their tables are made")
    expect(readme).toContain("(`rank --strict` exits 1 when any run has an error)")
    expect(readme).not.toMatch(/Exit codes: 0 when everything is valid, 1 when any run has an error/)
    expect(flat("docs/cli.md")).toContain("`rank` only with `--strict`: `rank`, `report` and `watch` exit 0 once their tables are made")
    const help = (await runCli(["rank", "--help"])).stdout.replace(/\s+/g, " ")
    expect(help).toContain("Exit 0 once the tables are made, failed runs listed with the reason and never ranked; 1 with --strict when any run has an error.")
  })
})

describe("each reason said once", () => {
  const demo = ["rank", "--all-runs", "--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), path.join(examples, "sick2014/submissions")]
  const times = (text: string, part: string) => text.split(part).length - 1

  it("the demo: a failed run's reasons once, under Issues (not in each ranking's row), and no message says what it expects twice", async () => {
    const r = await runCli(demo)
    expect(times(r.stdout, "the file has no header line, and the official scorer rejects such a file")).toBe(1)
    expect(times(r.stdout, "line 2 has 4 fields, the header names 3")).toBe(1)
    expect(times(r.stdout, "the run has no relatedness_score column")).toBe(1)
    // the headerless message names the header to add: the expected value is not said again beside the found one
    expect(r.stdout).toContain("or score it leniently (--lenient) (found \"5259\\tENTAILMENT\")")
    expect(r.stdout).not.toContain("expected pair_ID\\tentailment_judgment")
    expect(r.stdout).toMatch(/^\s+-\s+MeaningFactory\/run2\s+-\s+not ranked: the run failed \(see below\)$/m)
    expect(r.stdout.slice(r.stdout.indexOf("Issues"))).toMatch(/MeaningFactory\/run2\n\s+failed: no dataset can be scored\n\s+relatedness: the run has no relatedness_score column\n/)
  })

  it("score: the dataset's row gives the count and points to the errors, which give the reason once", async () => {
    const run = writeRun("Comma_run2.txt", runScores.map((s) => String(s).replace(".", ",")))
    const r = await runCli(["score", "--task", "stsb", "--gold", gold, run])
    expect(r.stdout).toMatch(/^\s+failed: no dataset can be scored$/m)
    const bad = runScores.filter((s) => String(s).includes(".")).length
    expect(bad).toBeGreaterThan(200)
    expect(r.stdout).toMatch(new RegExp(`^\\s+test\\s+-\\s+not scored: ${bad} errors \\(listed below\\)$`, "m"))
    expect(times(r.stdout, "the score on line 1 is not a number")).toBe(1)
  })
})

describe("text tables fit the terminal", () => {
  const demo = ["rank", "--all-runs", "--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), path.join(examples, "sick2014/submissions")]
  const tables = (stdout: string) => stdout.slice(0, stdout.indexOf("Issues")).split("\n").filter((l) => !/^\s*\[\d+\] /.test(l))

  it("COLUMNS=80: every row fits, a long reason is a numbered note below its table", async () => {
    const r = await runCli(demo, { env: { COLUMNS: "80" } })
    expect(r.code).toBe(0)
    // the header's gold path and signature are no table rows (a clone's path may be longer than 80)
    for (const line of tables(r.stdout).filter((l) => !l.startsWith("signature:") && !l.startsWith("gold:"))) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(r.stdout).toMatch(/^\s+-\s+Insight\/run1\s+-\s+\[1\]$/m)
    expect(r.stdout).toContain("  [1] not ranked: no entailment figure: the run's entailment_judgment column holds NA (or nothing): the team did not take part in entailment")
  })

  it("piped without COLUMNS: no limit, the reason stays in its row", async () => {
    const r = await runCli(demo)
    expect(r.stdout).toMatch(/^\s+-\s+Insight\/run1\s+-\s+not ranked: no entailment figure: the run's entailment_judgment column holds NA/m)
    expect(r.stdout).not.toMatch(/^\s*\[1\] /m)
  })
})
