/**
 * What a user's mistakes give (issue 11): a run path that does not exist, a run folder whose files
 * are misnamed, a run that lacks one STS 2017 track. Each is checked on every command it concerns,
 * as text and as JSON, in-process. The STS 2017 gold and runs are written here (4 pairs a track).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { strToU8, zipSync } from "fflate"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { backdate, examples, runCli } from "./support/cli.js"

const sickGold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const sickRun = path.join(examples, "sick2014/submissions/MeaningFactory_run1primary.txt")
const tmp = scratchDir("cli-mistakes")

const TRACKS = ["track1.ar-ar", "track2.ar-en", "track3.es-es", "track4a.es-en", "track4b.es-en", "track5.en-en", "track6.tr-en"]
const stsGold = path.join(tmp, "gold")
fs.mkdirSync(stsGold)
for (const t of TRACKS) fs.writeFileSync(path.join(stsGold, `STS.gs.${t}.txt`), "1\n2\n3\n4\n")
/** A run folder with the given tracks; track i's second score differs so that every r differs. */
const stsRun = (name: string, tracks: ReadonlyArray<string>, fileName = (t: string) => `STS.output.${t}.txt`) => {
  const dir = path.join(tmp, name)
  fs.mkdirSync(dir, { recursive: true })
  tracks.forEach((t, i) => fs.writeFileSync(path.join(dir, fileName(t)), `1.1\n2.${i + 1}\n2.9\n4.2\n`))
  return dir
}

describe("a run path that does not exist", () => {
  const missing = path.join(tmp, "no-such-run")
  const cases: ReadonlyArray<ReadonlyArray<string>> = [
    ["score", missing],
    ["validate", missing],
    ["rank", missing],
    ["compare", missing, sickRun],
    ["compare", sickRun, missing],
    ["significance", missing],
    ["report", missing],
    ["watch", "--once", "--out", path.join(tmp, "board"), missing]
  ]
  // report and watch have no --json (report --format json is their JSON)
  const json = cases.filter((c) => c[0] !== "report" && c[0] !== "watch").map((c) => [...c, "--json"])
  it.each([...cases, ...json, ["report", "--format", "json", missing]])("%s: one line on stderr naming the path, exit 2, nothing on stdout", async (...args) => {
    const [command, ...rest] = args as unknown as ReadonlyArray<string>
    const r = await runCli([command, "--task", "sick2014", "--gold", sickGold, ...rest])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe("")
    expect(r.stderr.trimEnd().split("\n")).toEqual([`error: ${missing}: no such file or folder`])
    expect(fs.existsSync(path.join(tmp, "board"))).toBe(false)
  })
})

describe("a run folder whose files match no dataset", () => {
  const misnamed = stsRun("Team_run1primary", TRACKS, (t) => `${t.split(".")[0]}.txt`)
  it("score and validate both exit 1 with the error listing the expected file names", async () => {
    for (const command of ["score", "validate"]) {
      const r = await runCli([command, "--task", "sts2017", "--gold", stsGold, misnamed])
      expect(r.code, command).toBe(1)
      expect(r.stdout, command).toContain("STS.output.track1.ar-ar.txt")
      expect(r.stdout, command).toContain("STS.output.track6.tr-en.txt")
      const json = await runCli([command, "--task", "sts2017", "--gold", stsGold, misnamed, "--json"])
      expect(json.code, command).toBe(1)
      const doc = JSON.parse(json.stdout) as { runs: Array<{ errors: Array<{ code: string; message: string }> }> }
      expect(doc.runs).toHaveLength(1)
      const error = doc.runs[0].errors.find((e) => e.code === "missing-dataset")!
      expect(error.message).toContain("STS.output.track4b.es-en.txt")
    }
  })
})

describe("a run missing one STS 2017 track", () => {
  const six = stsRun("ECNU_run1primary", TRACKS.filter((t) => t !== "track4b.es-en"))
  it("text says there is no official figure and why; the 6-track mean is labelled as such; JSON keeps its shape", async () => {
    const r = await runCli(["score", "--task", "sts2017", "--gold", stsGold, six])
    expect(r.stdout).toMatch(/official: none — the official figure needs every dataset, and track4b\.es-en has no figure/)
    expect(r.stdout).not.toMatch(/official n\/a/)
    expect(r.stdout).toMatch(/labelled aggregates, not the official figure: .*mean \d+\.\d\d \(6 of 7 datasets\)/)
    const json = await runCli(["score", "--task", "sts2017", "--gold", stsGold, six, "--json"])
    const doc = JSON.parse(json.stdout) as { runs: Array<{ official: ReadonlyArray<{ value: number | null }>; aggregates: Record<string, Record<string, { value: number | null; datasets: ReadonlyArray<string> }>> }> }
    expect(doc.runs[0].official[0].value).toBeNull()
    expect(doc.runs[0].aggregates.official.mean.datasets).toHaveLength(6)
  })

  it("is a warning, not an error (STS 2017 teams could enter some tracks only): exit 0, the missing file named under the run, never ranked, the reason said once", async () => {
    const folder = path.join(tmp, "partial")
    fs.mkdirSync(folder)
    fs.cpSync(stsRun("partial-src/Full_run1primary", TRACKS), path.join(folder, "Full_run1primary"), { recursive: true })
    fs.cpSync(six, path.join(folder, "ECNU_run1primary"), { recursive: true })
    fs.cpSync(stsRun("partial-src/Solo_run1primary", ["track5.en-en"]), path.join(folder, "Solo_run1primary"), { recursive: true })
    const sts = ["--task", "sts2017", "--gold", stsGold]
    const missingFile = path.join(folder, "ECNU_run1primary", "STS.output.track4b.es-en.txt")
    for (const args of [["score", path.join(folder, "ECNU_run1primary")], ["validate", path.join(folder, "ECNU_run1primary")], ["rank", folder], ["rank", "--strict", folder]]) {
      const r = await runCli([args[0], ...sts, ...args.slice(1)])
      expect(r.code, args.join(" ")).toBe(0)
      expect(r.stdout, args.join(" ")).toContain(`${missingFile}: warning: the run has no file for dataset track4b.es-en`)
    }
    const ranked = await runCli(["rank", ...sts, folder])
    expect(ranked.stdout).toMatch(/^\s+1\s+Full\/run1\s/m)
    expect(ranked.stdout).toContain("ECNU/run1      -  not ranked: no official score: it needs every dataset, and track4b.es-en has no figure (the run has no file for it)")
    // the six tracks a one-track run lacks are named together, once
    expect(ranked.stdout).toContain(
      "Solo/run1      -  not ranked: no official score: it needs every dataset, and track1.ar-ar, track2.ar-en, track3.es-es, track4a.es-en, track4b.es-en and track6.tr-en have no figure (the run has no file for them)"
    )
    expect(ranked.stdout).not.toContain("no official figure: no official score")
    const json = await runCli(["rank", ...sts, folder, "--json"])
    const doc = JSON.parse(json.stdout) as { runs: Array<{ run: { id: string }; status: string; warnings: Array<{ code: string; file: string }> }> }
    const solo = doc.runs.find((r) => r.run.id === "Solo/run1")!
    expect(solo.status).toBe("scored")
    expect(solo.warnings.filter((w) => w.code === "missing-dataset").map((w) => path.basename(w.file))).toEqual(
      TRACKS.filter((t) => t !== "track5.en-en").map((t) => `STS.output.${t}.txt`)
    )
  })

  it("a complete run prints its official figure first", async () => {
    const all = stsRun("ECNU_run2", TRACKS)
    const r = await runCli(["score", "--task", "sts2017", "--gold", stsGold, all])
    expect(r.stdout).toMatch(/^ {2}official \d+\.\d\d {3}wmean/m)
    expect(r.stdout).not.toContain("official: none")
  })
})

describe("a SICK run whose every line is bad", () => {
  const ids = fs.readFileSync(sickGold, "utf8").trimEnd().split(/\r?\n/).slice(1).map((l) => l.split("\t")[0])
  const write = (name: string, row: (id: string, i: number) => string) => {
    const file = path.join(tmp, name)
    fs.writeFileSync(file, `pair_ID\trelatedness_score\tentailment_judgment\n${ids.map(row).join("\n")}\n`)
    return file
  }
  it("the reason counts every bad line, says 'not evaluated' once, and the text shows the bad value", async () => {
    const file = write("Bad_run1primary.txt", (id) => `${id}\tfour\tNEUTRAL`)
    const r = await runCli(["score", "--task", "sick2014", "--gold", sickGold, file])
    expect(r.code).toBe(1)
    expect(ids.length).toBe(4927)
    // the row gives the true count and points to the errors, which say the reason once (issue 24)
    expect(r.stdout).toMatch(new RegExp(`relatedness\\s+-\\s+not scored: ${ids.length} errors \\(listed below\\)`))
    expect(r.stdout.split("the relatedness score on line 2 is not a number")).toHaveLength(2)
    expect(r.stdout).not.toMatch(/not evaluated: .*not evaluated/)
    expect(r.stdout).toContain(`${file}:2: error: the relatedness score on line 2 is not a number (expected a number, found "four")`)
    expect(r.stdout).toContain(`… ${ids.length - 8} more (--verbose lists them all)`)
  })

  it("unknown pair IDs: a capped list that still counts them all", async () => {
    const file = write("Wrong_run1primary.txt", (_id, i) => `x${i}\t3\tNEUTRAL`)
    const r = await runCli(["validate", "--task", "sick2014", "--gold", sickGold, file, "--json"])
    const doc = JSON.parse(r.stdout) as { runs: Array<{ errors: Array<{ code: string; count?: number }> }> }
    const unknown = doc.runs[0].errors.filter((e) => e.code === "unknown-pair")
    expect(unknown).toHaveLength(21)
    expect(unknown.reduce((n, e) => n + (e.count ?? 1), 0)).toBe(ids.length)
    const text = await runCli(["validate", "--task", "sick2014", "--gold", sickGold, file])
    expect(text.stdout).toContain(`${2 * ids.length} errors (listed below)`)
  })
})

describe("watch --once: the published pages", () => {
  it("name nothing outside the submissions folder; the HTML reloads itself, says when it was updated, and has per-dataset columns", async () => {
    const folder = path.join(tmp, "submissions")
    fs.mkdirSync(folder)
    fs.cpSync(stsRun("board-src/ECNU_run1primary", TRACKS), path.join(folder, "ECNU_run1primary"), { recursive: true })
    fs.mkdirSync(path.join(folder, "Bad_run1"))
    fs.writeFileSync(path.join(folder, "Bad_run1", "STS.output.track1.ar-ar.txt"), "1\nfour\n3\n4\n")
    backdate(folder)
    const out = path.join(tmp, "board-out")
    const r = await runCli(["watch", "--task", "sts2017", "--gold", stsGold, "--out", out, "--once", "--refresh", "45", folder])
    expect(r.code).toBe(0)
    for (const name of ["leaderboard.public.json", "leaderboard.public.md", "leaderboard.public.html", "leaderboard.json", "leaderboard.md", "leaderboard.html"]) {
      const text = fs.readFileSync(path.join(out, name), "utf8")
      expect(text, name).not.toContain(tmp)
      expect(text, name).not.toContain(stsGold)
    }
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.public.json"), "utf8")) as {
      runs: Array<{ id: string; errors: Array<{ file: string }>; datasets: Array<{ dataset: string; value: number | null }> }>
    }
    const bad = board.runs.find((x) => x.id === "Bad/run1")!
    expect(bad.errors.map((e) => e.file)).toContain(path.join("Bad_run1", "STS.output.track1.ar-ar.txt"))
    const ecnu = board.runs.find((x) => x.id === "ECNU/run1")!
    expect(ecnu.datasets.map((d) => d.dataset)).toEqual(TRACKS)
    const html = fs.readFileSync(path.join(out, "leaderboard.html"), "utf8")
    expect(html).toContain('<meta http-equiv="refresh" content="45">')
    expect(html).toMatch(/Last updated: <time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">/)
    // each column headed as the published table heads it (the edition's display name, as the report)
    for (const t of ["ar-ar", "ar-en", "es-es", "es-en", "es-en WMT", "en-en", "tr-en"]) expect(html).toContain(`>${t}<`)
    // the figures of the columns are score's, in the edition's style (r x 100)
    const scored = await runCli(["score", "--task", "sts2017", "--gold", stsGold, path.join(folder, "ECNU_run1primary")])
    const track1 = /track1\.ar-ar\s+4\s+pearson (\d+\.\d\d)/.exec(scored.stdout)![1]
    expect(html).toContain(`>${track1}<`)
  })
})

describe("one number style and one run label in every output", () => {
  it("score, compare, significance, rank and report print the same figure for the same run, and name it ECNU/run1", async () => {
    const folder = path.join(tmp, "style")
    fs.mkdirSync(folder)
    fs.cpSync(stsRun("style-src/ECNU_run1primary", TRACKS), path.join(folder, "ECNU_run1primary"), { recursive: true })
    // a second run, not a linear transform of the first (its correlations differ)
    const other = path.join(folder, "HCTI_run1primary")
    fs.mkdirSync(other)
    TRACKS.forEach((t, i) => fs.writeFileSync(path.join(other, `STS.output.${t}.txt`), `1.4\n1.9\n3.${i}\n3.8\n`))
    const sts = ["--task", "sts2017", "--gold", stsGold]
    const ecnu = path.join(folder, "ECNU_run1primary")
    const scored = await runCli(["score", ...sts, ecnu])
    const r = /track1\.ar-ar\s+4\s+pearson (\d+\.\d\d)\s/.exec(scored.stdout)![1]
    const compared = await runCli(["compare", ...sts, ecnu, other, "--resamples", "50"])
    expect(compared.stdout).toMatch(new RegExp(`^track1\\.ar-ar\\s+4\\s+${r.replace(".", "\\.")}\\s`, "m"))
    expect(compared.stdout).toContain("A: ECNU/run1")
    const significance = await runCli(["significance", ...sts, folder, "--dataset", "track1.ar-ar"])
    expect(significance.stdout).toMatch(new RegExp(`ECNU/run1\\s+${r.replace(".", "\\.")}\\s`))
    const report = await runCli(["report", ...sts, folder])
    expect(report.stdout).toContain("ECNU/run1")
    expect(report.stdout).not.toMatch(/ECNU[-_]run1/)
    const ranked = await runCli(["rank", ...sts, folder])
    expect(ranked.stdout).toContain("ECNU/run1")
  })
})

describe("a run that is a symbolic link out of the submissions folder", () => {
  it("score, validate and rank refuse it and never print where it points, text or JSON", async () => {
    const hidden = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-server-"))
    try {
      const target = stsRun("server-src/Other_run1", TRACKS)
      fs.cpSync(target, path.join(hidden, "private"), { recursive: true })
      const folder = path.join(tmp, "linked")
      fs.mkdirSync(folder)
      fs.symlinkSync(path.join(hidden, "private"), path.join(folder, "Evil_run1primary"))
      const sts = ["--task", "sts2017", "--gold", stsGold]
      for (const args of [
        ["rank", ...sts, folder],
        ["rank", ...sts, folder, "--json"],
        ["validate", ...sts, folder],
        ["score", ...sts, path.join(folder, "Evil_run1primary"), "--json"]
      ]) {
        const r = await runCli(args)
        const out = r.stdout + r.stderr
        expect(out, args.join(" ")).toContain("is a link to a place outside the submissions folder")
        expect(out, args.join(" ")).not.toContain(hidden)
        expect(out, args.join(" ")).not.toContain(fs.realpathSync(hidden))
      }
    } finally {
      fs.rmSync(hidden, { recursive: true, force: true })
    }
  })
})

describe("a run.json that cannot be used", () => {
  it("the run fails with the error naming the run.json and what was expected; it is never ranked under its name's team; the others are", async () => {
    const folder = path.join(tmp, "metadata")
    fs.mkdirSync(folder)
    fs.cpSync(stsRun("metadata-src/Good_run1primary", TRACKS), path.join(folder, "Good_run1primary"), { recursive: true })
    // the best run of the folder, if it were scored: its team says it is another team's
    fs.cpSync(stsRun("metadata-src/Typo_run1primary", TRACKS), path.join(folder, "Typo_run1primary"), { recursive: true })
    fs.writeFileSync(path.join(folder, "Typo_run1primary", "run.json"), JSON.stringify({ team: "Other", primery: true }))
    fs.cpSync(stsRun("metadata-src/Huge_run1primary", TRACKS), path.join(folder, "Huge_run1primary"), { recursive: true })
    fs.writeFileSync(path.join(folder, "Huge_run1primary", "run.json"), `{ "team": "Other", "description": "${"x".repeat(1024 * 1024)}" }`)
    const sts = ["--task", "sts2017", "--gold", stsGold]
    const ranked = await runCli(["rank", ...sts, folder, "--json"])
    const doc = JSON.parse(ranked.stdout) as {
      runs: Array<{ run: { id: string }; status: string; errors: Array<{ code: string; file: string; message: string; expected?: string; field?: string }>; warnings: Array<{ code: string }> }>
      rankings: { rankings: Array<{ entries: Array<{ id: string; rank: number | null }> }> }
    }
    expect(doc.rankings.rankings[0].entries.filter((e) => e.rank !== null).map((e) => e.id)).toEqual(["Good/run1"])
    // its team is unknown: listed under its folder's name
    for (const [id, file] of [
      ["Typo_run1primary", "Typo_run1primary"],
      ["Huge_run1primary", "Huge_run1primary"]
    ]) {
      const r = doc.runs.find((x) => x.run.id === id)!
      expect(r.status, id).toBe("failed")
      expect(r.errors.map((e) => [e.code, e.file]), id).toEqual([["bad-run-metadata", path.join(folder, file, "run.json")]])
      expect(r.errors[0].message, id).toContain("the run was not scored")
      // its files were there: no "no file for dataset" warning per track
      expect(r.warnings.map((w) => w.code), id).not.toContain("missing-dataset")
    }
    const typo = doc.runs.find((x) => x.run.id === "Typo_run1primary")!.errors[0]
    expect(typo.field).toBe("primery")
    expect(typo.expected).toContain('"primary": boolean')
    expect(doc.runs.find((x) => x.run.id === "Huge_run1primary")!.errors[0].expected).toBe("a run.json of at most 1 MiB")
    // score: the error, and exit 1
    const scored = await runCli(["score", ...sts, path.join(folder, "Huge_run1primary")])
    expect(scored.code).toBe(1)
    expect(scored.stdout).toContain(`${path.join(folder, "Huge_run1primary", "run.json")}: error: the run.json has`)
    expect(scored.stdout).toContain("more than the limit of 1048576 bytes (1 MiB)")
    expect(scored.stdout).not.toContain("not submitted")
  })
})

describe("a run whose run.json cannot be used, or a zip with several: who submitted it is unknown", () => {
  // Good has three valid runs (the limit of STS 2017); Good_run1, named like a fourth one that sorts
  // first, has a broken run.json; Twice_run1primary.zip holds two run.json.
  const folder = path.join(tmp, "identity")
  fs.mkdirSync(folder)
  for (const name of ["Good_run2primary", "Good_run3", "Good_run4", "Good_run1"]) {
    fs.cpSync(stsRun(`identity-src/${name}`, TRACKS), path.join(folder, name), { recursive: true })
  }
  fs.writeFileSync(path.join(folder, "Good_run1", "run.json"), '{ "team": "Good", "run": 1, ')
  const zipped: Record<string, Uint8Array> = {}
  for (const t of TRACKS) zipped[`STS.output.${t}.txt`] = strToU8("1\n2\n3\n4\n")
  zipped["run.json"] = strToU8(JSON.stringify({ team: "Twice", run: 1, primary: true }))
  zipped["again/run.json"] = strToU8(JSON.stringify({ team: "Good", run: 1, primary: true }))
  fs.writeFileSync(path.join(folder, "Twice_run1primary.zip"), zipSync(zipped))
  const sts = ["--task", "sts2017", "--gold", stsGold]
  const unknown = ["Good_run1", "Twice_run1primary.zip"]

  it("rank --json: failed, listed in the primary-only ranking under its file name, never ranked; counted toward no team's run limit", async () => {
    const r = await runCli(["rank", ...sts, folder, "--json"])
    const doc = JSON.parse(r.stdout) as {
      issues: Array<{ code: string }>
      runs: Array<{ run: { id: string; team: string; identityUnknown?: boolean }; status: string; errors: Array<{ code: string; file: string; message: string; expected?: string }> }>
      rankings: { rankings: Array<{ entries: Array<{ id: string; rank: number | null; reason?: string; identityUnknown?: boolean }> }> }
    }
    expect(doc.issues.map((i) => i.code)).not.toContain("run-limit")
    for (const id of unknown) {
      const run = doc.runs.find((x) => x.run.id === id)!
      expect(run.status, id).toBe("failed")
      expect(run.run, id).toMatchObject({ team: id, identityUnknown: true })
      expect(run.errors.map((e) => e.code), id).toEqual(["bad-run-metadata"])
      const entry = doc.rankings.rankings[0].entries.find((e) => e.id === id)!
      expect(entry, id).toMatchObject({ rank: null, identityUnknown: true })
      expect(entry.reason, id).toMatch(/^the run failed: /)
    }
    const twice = doc.runs.find((x) => x.run.id === "Twice_run1primary.zip")!.errors[0]
    expect(twice.file).toBe(path.join(folder, "Twice_run1primary.zip"))
    expect(twice.message).toContain('"again/run.json", "run.json"')
    expect(twice.expected).toBe("one run.json in the run's zip")
    expect(doc.rankings.rankings[0].entries.filter((e) => e.rank !== null).map((e) => e.id)).toEqual(["Good/run2"])
  })

  it("rank (text): in the ranking table as not ranked, not only under Issues", async () => {
    const r = await runCli(["rank", ...sts, folder])
    const table = r.stdout.slice(0, r.stdout.indexOf("Issues"))
    for (const id of unknown) expect(table, id).toMatch(new RegExp(`^\\s+-\\s+${id.replace(".", "\\.")}\\s.*not ranked: the run failed`, "m"))
    expect(r.stdout).not.toContain("more than the 3 allowed")
  })

  it("score, validate: listed under its file name with the error, exit 1", async () => {
    for (const command of ["score", "validate"]) {
      const r = await runCli([command, ...sts, folder])
      expect(r.code, command).toBe(1)
      for (const id of unknown) expect(r.stdout, `${command} ${id}`).toContain(id)
      expect(r.stdout, command).toContain(`${path.join(folder, "Twice_run1primary.zip")}: error: the zip holds 2 run.json files`)
      expect(r.stdout, command).not.toContain("more than the 3 allowed")
    }
  })

  it("report --primary-only: a row for it (whether it is primary is unknown), with no figure", async () => {
    const r = await runCli(["report", ...sts, "--format", "json", "--primary-only", folder])
    const doc = JSON.parse(r.stdout) as { tables: Array<{ sections: Array<{ rows: Array<{ id: string }> }> }> }
    const ids = doc.tables[0].sections.flatMap((s) => s.rows.map((x) => x.id))
    expect(ids).toEqual(expect.arrayContaining(["Good/run2", ...unknown]))
    expect(ids).not.toContain("Good/run3")
  })

  it("watch --once: the team's three valid runs are all ranked, none over the limit; the unknown runs are listed as failed", async () => {
    const out = path.join(tmp, "identity-board")
    const r = await runCli(["watch", ...sts, "--once", "--out", out, folder])
    expect(r.code).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as {
      counts: { runs: number; failed: number; ranked: number }
      runs: Array<{ id: string; entry: string; status: string; flags: Array<string>; identityUnknown?: boolean }>
      rankings: Array<{ entries: Array<{ id: string; rank: number | null }> }>
    }
    expect(board.counts).toMatchObject({ runs: 5, failed: 2, ranked: 3 })
    expect(board.runs.flatMap((x) => x.flags)).not.toContain("over-limit")
    for (const id of unknown) expect(board.runs.find((x) => x.id === id), id).toMatchObject({ entry: id, status: "failed", identityUnknown: true })
    expect(board.rankings[0].entries.filter((e) => e.rank !== null).map((e) => e.id).sort()).toEqual(["Good/run2", "Good/run3", "Good/run4"])
    // and with --primary-only they are still listed
    const primary = path.join(tmp, "identity-board-primary")
    await runCli(["watch", ...sts, "--once", "--primary-only", "--out", primary, folder])
    const only = JSON.parse(fs.readFileSync(path.join(primary, "leaderboard.json"), "utf8")) as typeof board
    expect(only.rankings[0].entries.map((e) => e.id)).toEqual(expect.arrayContaining(unknown))
  })
})

describe("an edition file whose format lists a label twice", () => {
  it("is refused at load, naming the file, the field and the label (exit 2), not a RangeError from accuracy's exit 70", async () => {
    const dir = path.join(tmp, "twice")
    fs.mkdirSync(dir, { recursive: true })
    const edition = path.join(dir, "edition.yaml")
    fs.writeFileSync(
      edition,
      [
        "id: twice",
        "title: a label listed twice",
        "description: one labelled dataset",
        "scale: { min: 0, max: 1 }",
        "submission: file",
        'format: { type: delimited, delimiter: ",", id: id, label: label, labels: [yes, no, yes] }',
        "datasets:",
        "  - { name: main, gold: gold.csv, run: run.csv }",
        "runLimit: 1",
        "ranking:",
        "  - { subtask: labels, metric: accuracy, aggregate: single }",
        "missingDataset: no-official-score",
        "published: { style: r3 }",
        ""
      ].join("\n")
    )
    fs.writeFileSync(path.join(dir, "gold.csv"), "id,label\n1,yes\n2,no\n")
    fs.writeFileSync(path.join(dir, "Team_run1primary.csv"), "id,label\n1,yes\n2,yes\n")
    const r = await runCli(["score", "--task", edition, "--gold", path.join(dir, "gold.csv"), path.join(dir, "Team_run1primary.csv")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${edition}: format.labels: "yes" is listed twice`)
    expect(r.stderr).not.toContain("internal error")
  })
})
