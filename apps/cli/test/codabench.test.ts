/**
 * `stseval codabench` in process: the scoring program writes what `stseval score --json` says of
 * the same run (the figures, in the edition's style, and the signature), `bundle` ships the built
 * single-file CLI when not given one, and `import --late-until` marks late runs. (The bundled CLI
 * run as Codabench's worker runs it is in packages/codabench/test/ScoringProgram.test.ts.)
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { zipSync } from "fflate"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultCli } from "../src/commands/codabench.js"
import { repoRoot, runCli } from "./support/cli.js"
import { pearson } from "@stseval/vitest-config/reference"

let work: string
let gold: string
let runFile: string
let goldScores: Array<number>
let runScores: Array<number>

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-codabench-"))
  // An STS Benchmark test file of 30 pairs and a run for it.
  goldScores = Array.from({ length: 30 }, (_, i) => ((i * 7) % 26) / 5)
  runScores = goldScores.map((g, i) => Math.round((g + ((i % 5) - 2) / 4) * 100) / 100)
  gold = path.join(work, "sts-test.csv")
  fs.writeFileSync(gold, goldScores.map((g, i) => `main-captions\tMSRvid\t2012test\t${String(i).padStart(4, "0")}\t${g.toFixed(3)}\tA man plays ${i}.\tA person plays ${i}.\n`).join(""))
  runFile = path.join(work, "sts-test.output.txt")
  fs.writeFileSync(runFile, runScores.map((x) => `${x}\n`).join(""))
})

afterAll(() => {
  if (work !== undefined) fs.rmSync(work, { recursive: true, force: true })
})

/** A stand-in for the built CLI a bundle copies: the bundle is made, never run, here. */
const notRunCli = (): string => {
  const cli = path.join(work, "stseval.mjs")
  fs.writeFileSync(cli, "// not run here\n")
  return cli
}

/** A Codabench download folder `name` in which each of `zips` holds the same run (the test's STS-B run). */
const downloadOf = (name: string, zips: ReadonlyArray<string>): string => {
  const download = path.join(work, name)
  fs.mkdirSync(download)
  const zip = zipSync({ "sts-test.output.txt": fs.readFileSync(runFile) })
  for (const z of zips) fs.writeFileSync(path.join(download, z), zip)
  return download
}

describe("codabench score", () => {
  it("writes the figures and prints the signature of `stseval score --json` on the same run", async () => {
    const cli = notRunCli()
    const bundle = path.join(work, "bundle")
    const made = await runCli(["codabench", "bundle", "--task", "stsb", "--gold", gold, "--out", bundle, "--cli", cli, "--live-test"])
    expect(made.stderr).toBe("")
    expect(made.code).toBe(0)
    const input = path.join(work, "app/input")
    fs.cpSync(path.join(bundle, "reference_data_test"), path.join(input, "ref"), { recursive: true })
    fs.mkdirSync(path.join(input, "res"), { recursive: true })
    fs.copyFileSync(runFile, path.join(input, "res/sts-test.output.txt"))
    const output = path.join(work, "app/output")
    const scored = await runCli(["codabench", "score", input, output])
    expect(scored.stderr).toBe("")
    expect(scored.code).toBe(0)

    const json = await runCli(["score", "--task", "stsb", "--gold", gold, runFile, "--json"])
    expect(json.code).toBe(0)
    const doc = JSON.parse(json.stdout) as { signature: { text: string }; runs: Array<{ datasets: Record<string, { figures: { pearson: number; spearman: number } }> }> }
    const figures = doc.runs[0].datasets["test"].figures
    const scores = JSON.parse(fs.readFileSync(path.join(output, "scores.json"), "utf8")) as Record<string, number>
    expect(scores).toEqual({ pearson: figures.pearson * 100, spearman: figures.spearman * 100 })
    expect(scores["pearson"]).toBeCloseTo(100 * pearson(runScores, goldScores), 10)
    expect(scored.stdout.split("\n")).toContain(`signature: ${doc.signature.text}`)
    expect(fs.readFileSync(path.join(output, "detailed_results.html"), "utf8")).toContain(doc.signature.text)
    // The log shows the figure in the edition's style (STS-B: r x 100, 2 decimals).
    expect(scored.stdout).toContain(`Pearson r (pearson): ${(figures.pearson * 100).toFixed(2)}`)
  })
})

describe("codabench bundle", () => {
  it("without --cli, run from the sources, ships the build: apps/cli/dist/stseval.mjs", async () => {
    const built = path.join(repoRoot, "apps/cli/dist/stseval.mjs")
    expect(defaultCli()).toBe(built)
    const out = path.join(work, "bundle-default")
    const made = await runCli(["codabench", "bundle", "--task", "stsb", "--gold", gold, "--out", out])
    if (fs.existsSync(built)) {
      expect(made.code).toBe(0)
      expect(fs.readFileSync(path.join(out, "scoring_program/stseval.mjs")).equals(fs.readFileSync(built))).toBe(true)
    } else {
      expect(made.code).not.toBe(0)
      expect(made.stderr).toContain(`${built} does not exist; build it first`)
    }
  })
})

describe("codabench import", () => {
  it("--late-until: a submission after the deadline but within the grace period is late, not post-deadline", async () => {
    const download = downloadOf("download", ["ID_1_a.zip", "ID_2_b.zip", "ID_3_c.zip"])
    fs.writeFileSync(
      path.join(download, "submissions.csv"),
      "Owner,Created When,Status,Submission ID\nteam,2017-01-30T10:00:00Z,Finished,1\nteam,2017-02-01T10:00:00Z,Finished,2\nteam,2017-02-05T10:00:00Z,Finished,3\n"
    )
    const out = path.join(work, "imported")
    const result = await runCli(["codabench", "import", download, "--out", out, "--deadline", "2017-01-31T23:59:59Z", "--late-until", "2017-02-02T23:59:59Z", "--json"])
    expect(result.code).toBe(0)
    const runs = (JSON.parse(result.stdout) as { runs: Array<{ run: number; primary: boolean; late: boolean; postDeadline: boolean }> }).runs
    expect(runs.map((r) => [r.run, r.primary, r.late, r.postDeadline])).toEqual([
      [1, false, false, false],
      [2, true, true, false],
      [3, false, false, true]
    ])
    expect(JSON.parse(fs.readFileSync(path.join(out, "team_run2.run.json"), "utf8"))).toMatchObject({ late: true, postDeadline: false })
    const bad = await runCli(["codabench", "import", download, "--out", path.join(work, "x"), "--late-until", "soon"])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain(`--late-until: "soon" is not a date`)
  })

  it("refuses a date that is none or not in the calendar (--deadline 2014-02-30, 12, 1), before writing anything", async () => {
    const download = path.join(work, "download")
    for (const bad of ["2014-02-30", "12", "1", "2017-01-31T25:00:00Z"]) {
      const out = path.join(work, `bad-deadline-${bad.replace(/\W/g, "")}`)
      const result = await runCli(["codabench", "import", download, "--out", out, "--deadline", bad])
      expect(result.code, bad).toBe(2)
      expect(result.stderr).toContain(`--deadline: "${bad}" is not a date`)
      expect(fs.existsSync(out)).toBe(false)
    }
    const bundle = await runCli(["codabench", "bundle", "--task", "stsb", "--gold", gold, "--out", path.join(work, "b-bad"), "--test-start", "2017-02-30"])
    expect(bundle.code).toBe(2)
    expect(bundle.stderr).toContain('--test-start: "2017-02-30" is not a date')
  })

  it("an end given as a day alone is refused, both readings spelled out (it would have closed at the day's first second); a start may be a day", async () => {
    const cli = notRunCli()
    const out = path.join(work, "b-day-end")
    const refused = await runCli(["codabench", "bundle", "--task", "stsb", "--gold", gold, "--out", out, "--cli", cli, "--test-start", "2027-01-20", "--test-end", "2027-02-07"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--test-end: "2027-02-07" is a day, not an instant: give the time, e.g. 2027-02-07T23:59:59Z for the end of that day (2027-02-07T00:00:00Z would be its start)')
    expect(fs.existsSync(out)).toBe(false)
    const deadline = await runCli(["codabench", "import", path.join(work, "download"), "--out", path.join(work, "x-day"), "--deadline", "2017-01-31"])
    expect(deadline.code).toBe(2)
    expect(deadline.stderr).toContain('--deadline: "2017-01-31" is a day, not an instant')
    const made = await runCli(["codabench", "bundle", "--task", "stsb", "--gold", gold, "--out", out, "--cli", cli, "--test-start", "2027-01-20", "--test-end", "2027-02-07T23:59:59Z"])
    expect(made.code, made.stderr).toBe(0)
    expect(made.stdout).toContain("phase Test: 2027-01-20 00:00:00 - 2027-02-07 23:59:59 UTC")
  })

  it("unseal: after the test phase, the reference data to upload and the steps; refused before it, and for a live bundle", async () => {
    const cli = notRunCli()
    const sealed = path.join(work, "b-sealed")
    const made = await runCli(["codabench", "bundle", "--task", "stsb", "--gold", gold, "--out", sealed, "--cli", cli, "--test-start", "2017-01-09T12:00:00Z", "--test-end", "2017-01-30T23:59:59Z"])
    expect(made.code, made.stderr).toBe(0)
    expect(made.stdout).toContain(`test gold: ${sealed}.gold`)
    expect(made.stdout).toContain("phase Scoring: 2017-02-01 23:59:59 - open UTC")
    const unsealed = await runCli(["codabench", "unseal", sealed, "--out", path.join(work, "b-sealed-gold")])
    expect(unsealed.code, unsealed.stderr).toBe(0)
    expect(unsealed.stdout).toContain(`zip: ${path.join(work, "b-sealed-gold")}.zip (upload this file)`)
    expect(unsealed.stdout).toContain('Resources > Tasks > "stsb test"')
    const future = path.join(work, "b-future")
    expect((await runCli(["codabench", "bundle", "--task", "stsb", "--gold", gold, "--out", future, "--cli", cli])).code).toBe(0)
    const early = await runCli(["codabench", "unseal", future, "--out", path.join(work, "b-future-gold")])
    expect(early.code).toBe(2)
    expect(early.stderr).toContain("--early")
    const live = path.join(work, "b-live")
    expect((await runCli(["codabench", "bundle", "--task", "stsb", "--gold", gold, "--out", live, "--cli", cli, "--live-test"])).code).toBe(0)
    const notSealed = await runCli(["codabench", "unseal", live, "--out", path.join(work, "b-live-gold"), "--early"])
    expect(notSealed.code).toBe(2)
    expect(notSealed.stderr).toContain("has no sealed test phase")
  })

  it("a submission it cannot import: exit 1, each listed on stderr, nothing written; usernames such as constructor map through --teams", async () => {
    const download = downloadOf("download-odd", ["1_constructor_PhaseId2_2017-01-30_00-00_submission.zip", "2_toString_PhaseId2_2017-01-30_05-00_submission.zip", "stray.zip"])
    const teamsFile = path.join(work, "teams-odd.json")
    fs.writeFileSync(teamsFile, JSON.stringify({ constructor: "Builders", toString: "Strings" }))
    const out = path.join(work, "imported-odd")
    const failed = await runCli(["codabench", "import", download, "--out", out, "--teams", teamsFile])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain("1 submission of")
    expect(failed.stderr).toContain("nothing was written")
    expect(failed.stderr).toContain("  stray.zip: no CSV export says whose submission it is")
    expect(fs.existsSync(out)).toBe(false)
    fs.rmSync(path.join(download, "stray.zip"))
    const ok = await runCli(["codabench", "import", download, "--out", out, "--teams", teamsFile, "--json"])
    expect(ok.code).toBe(0)
    expect((JSON.parse(ok.stdout) as { runs: Array<{ team: string; owner: string }> }).runs.map((r) => [r.team, r.owner])).toEqual([
      ["Builders", "constructor"],
      ["Strings", "toString"]
    ])
    fs.writeFileSync(teamsFile, JSON.stringify({ constructor: 3 }))
    const badTeams = await runCli(["codabench", "import", download, "--out", path.join(work, "x2"), "--teams", teamsFile])
    expect(badTeams.code).toBe(2)
    // checked by a Schema: the file, the field and what was expected
    expect(badTeams.stderr).toContain(`--teams: ${teamsFile}: constructor: Expected string (expected`)
    expect(badTeams.stderr).toContain('expected { "username": "Team" }')
    fs.writeFileSync(teamsFile, JSON.stringify(["Builders"]))
    const listTeams = await runCli(["codabench", "import", download, "--out", path.join(work, "x3"), "--teams", teamsFile])
    expect(listTeams.code).toBe(2)
    expect(listTeams.stderr).toContain(`--teams: ${teamsFile}: Expected`)
    expect(fs.existsSync(path.join(work, "x2")) || fs.existsSync(path.join(work, "x3"))).toBe(false)
  })
})
