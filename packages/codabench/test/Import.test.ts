/**
 * From what an organiser downloads from Codabench back to a submissions folder. The downloads and
 * the CSV exports are built exactly as Codabench's code builds them (`support/codabench.ts`, with
 * the code named there): v1.23 and later (`{id}_{owner}_PhaseId{phase}_{date}_{file}`, the
 * browser's substitution, the CSV with ids) and v1.22 and before (`ID_{id}_{file}` written in
 * blocks of 8 KiB under one name, the CSV without ids). The import must give each team its runs
 * in order, the primary run, post-deadline and failed submissions, and rank exactly as the runs
 * ranked directly; anything it cannot import stops it, listed, with nothing written.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { zipSync } from "fflate"
import { beforeAll, describe, expect, it } from "vitest"
import { unzipSync } from "fflate"
import { Bundle, Import, ScoringProgram } from "../src/index.js"
import { bulkDownloadV122, bulkDownloadV123, csvExport, serverName, storedFileName } from "./support/codabench.js"
import type { Submission } from "./support/codabench.js"
import { rankJson, run, sickExample } from "./support/fixtures.js"
import { prepareApp, tempDir } from "./support/worker.js"

/** A participant's upload: the run file, in a folder of the zip as people zip things. */
const upload = (runFile: string) => zipSync({ [`predictions/${runFile}`]: fs.readFileSync(path.join(sickExample.runs, runFile)) })

const at = (iso: string) => new Date(iso)
const sub = (id: number, owner: string, phase: "Development" | "Test", created: string, status: Submission["status"], uploaded: string, runFile: string): Submission & { readonly runFile: string } => ({
  id,
  owner,
  phaseId: phase === "Test" ? 2 : 1,
  phase,
  created: at(created),
  status,
  uploaded,
  bytes: upload(runFile),
  runFile
})

// The submissions folder of examples/sick2014 as a Codabench test phase would have received it,
// plus a development-phase submission, a failed one and one after the deadline. Two participants
// uploaded `submission.zip` (the case that broke the import of ID_ names).
const all = [
  sub(3990, "mf_user", "Development", "2014-03-01T10:00:00Z", "Finished", "submission.zip", "MeaningFactory_run2.txt"),
  sub(4001, "organisers", "Test", "2014-03-20T00:00:00Z", "Finished", "baseline.zip", "Baseline-overlap_run1primary.txt"),
  sub(4107, "mf_user", "Test", "2014-03-28T09:00:00.123Z", "Finished", "submission.zip", "MeaningFactory_run1primary.txt"),
  sub(4120, "insight-dcu", "Test", "2014-03-29T17:30:00Z", "Finished", "submission.zip", "Insight_run1primary.txt"),
  sub(4121, "insight-dcu", "Test", "2014-03-29T17:45:00Z", "Failed", "w2v text8, raw.zip", "Insight_run2.txt"),
  sub(4135, "insight-dcu", "Test", "2014-03-30T08:00:00Z", "Finished", "w2v text8, raw.zip", "Insight_run2.txt"),
  sub(4140, "mf_user", "Test", "2014-03-30T10:00:00Z", "Finished", "The Meaning Factory, second run with a long name.zip", "MeaningFactory_run2.txt"),
  sub(4200, "mf_user", "Test", "2014-04-02T09:00:00Z", "Finished", "late.zip", "MeaningFactory_run1primary.txt")
]
const testPhase = all.filter((s) => s.phase === "Test")
const deadline = new Date("2014-03-31T23:59:00Z")
const teams = { mf_user: "MeaningFactory", "insight-dcu": "Insight", organisers: "Baseline-overlap" }

/** [team, run, primary, postDeadline, id] of each imported run. */
const summary = (r: Import.Result) => r.runs.map((x) => [x.team, x.run, x.primary, x.postDeadline, x.id])
const expectedRuns = [
  ["Baseline-overlap", 1, true, false, "4001"],
  ["Insight", 1, true, false, "4120"],
  ["Insight", 2, false, false, "4135"],
  ["MeaningFactory", 1, true, false, "4107"],
  ["MeaningFactory", 2, false, false, "4140"],
  ["MeaningFactory", 3, false, true, "4200"]
]

let work: string
const file = (name: string, content: Uint8Array | string) => {
  const p = path.join(work, name)
  fs.writeFileSync(p, content)
  return p
}
const out = (name: string) => path.join(work, "out", name)

/** `bulk` imported with the CSV export of `version` (whose header line is checked): the download is read as that version, and the runs are the expected ones. */
const importWithCsv = async (version: "v1.23+" | "v1.22-", name: string, bulk: string, header: string) => {
  const manifest = file(`${name}.csv`, csvExport(version, testPhase))
  expect(fs.readFileSync(manifest, "utf8").split("\r\n")[0]).toBe(header)
  const target = out(name)
  const result = await run(Import.importSubmissions(bulk, target, { manifest, deadline, teams, primary: "first" }))
  expect(result.download).toBe(version)
  expect(summary(result)).toEqual(expectedRuns)
  return { result, target }
}
const failure = (input: string, options: Import.Options = {}, target = out(`f-${Math.random()}`)) =>
  run(Effect.flip(Import.importSubmissions(input, target, options))).then((e) => ({ ...e, target, written: fs.existsSync(target) }))

beforeAll(() => {
  work = tempDir()
})

describe("Codabench v1.23 and later: {id}_{owner}_PhaseId{phase}_{date}_{file}", () => {
  it("round-trips with the CSV: teams, run numbers, primary, post-deadline and the failed submission; rank equals rank on the original runs", async () => {
    const bulk = file("v123.zip", bulkDownloadV123(testPhase))
    const { result, target } = await importWithCsv("v1.23+", "v123", bulk, "Submission ID,File Name,Owner,Created When,Status,Phase")
    expect(result.skipped).toEqual([{ source: serverName(all[4]).replace(/[:/\\]/g, "_"), reason: "its status is Failed" }])
    // the bytes of each run are the participant's upload
    for (const r of result.runs) expect(fs.readFileSync(r.path).equals(Buffer.from(all.find((s) => String(s.id) === r.id)!.bytes))).toBe(true)
    for (const ranking of ["relatedness", "entailment"]) {
      const imported = (await rankJson("sick2014", sickExample.gold, target)).find((r) => r.ranking === ranking)
      const direct = (await rankJson("sick2014", sickExample.gold, sickExample.runs)).find((r) => r.ranking === ranking)
      expect(imported).toEqual(direct)
      expect(imported!.entries.filter((e) => e.rank !== null).length).toBeGreaterThan(1)
    }
    // Without the post-deadline submission, every run ranks as in the examples folder, all runs listed.
    const inTime = testPhase.filter((s) => s.id !== 4200)
    const allOut = out("v123-in-time")
    await run(Import.importSubmissions(file("v123-in-time.zip", bulkDownloadV123(inTime)), allOut, { manifest: file("in-time.csv", csvExport("v1.23+", inTime)), deadline, teams, primary: "first" }))
    expect(await rankJson("sick2014", sickExample.gold, allOut, false)).toEqual(await rankJson("sick2014", sickExample.gold, sickExample.runs, false))
  })

  it("writes run.json beside each zip: team, run, primary, post-deadline, and where it came from", async () => {
    const target = out("v123-meta")
    await run(Import.importSubmissions(file("v123m.zip", bulkDownloadV123(testPhase)), target, { manifest: file("v123m.csv", csvExport("v1.23+", testPhase)), deadline, teams, primary: "first" }))
    const meta = JSON.parse(fs.readFileSync(path.join(target, "MeaningFactory_run3.run.json"), "utf8")) as Record<string, unknown>
    expect(meta).toEqual({
      team: "MeaningFactory",
      run: 3,
      primary: false,
      late: false,
      postDeadline: true,
      description: `Codabench submission 4200 by mf_user, 2014-04-02T09:00:00.000Z (${serverName(all[7])})`.replace(/[:/\\](?=\d\d-\d\d_)/, "_")
    })
    expect(fs.readdirSync(target).filter((f) => !f.startsWith(".")).sort()).toEqual(
      ["Baseline-overlap_run1", "Insight_run1", "Insight_run2", "MeaningFactory_run1", "MeaningFactory_run2", "MeaningFactory_run3"].flatMap((s) => [`${s}.run.json`, `${s}.zip`]).sort()
    )
  })

  it("a download of two phases: refused without --phase; --phase by name (CSV) or by id (names) keeps one", async () => {
    const bulk = file("two-phases.zip", bulkDownloadV123(all))
    const manifest = file("two-phases.csv", csvExport("v1.23+", all))
    const e = await failure(bulk, { manifest, deadline, teams })
    expect(e.reason).toBe('the download holds submissions of 2 phases ("Development", "Test"); say which to import with --phase')
    expect(e.written).toBe(false)
    const byName = await run(Import.importSubmissions(bulk, out("by-name"), { manifest, deadline, teams, phase: "test", primary: "first" }))
    expect(summary(byName)).toEqual(expectedRuns)
    expect(byName.skipped.map((s) => s.reason).sort()).toEqual(['it belongs to phase "Development"', "its status is Failed"])
    const byId = await run(Import.importSubmissions(bulk, out("by-id"), { manifest, deadline, teams, phase: "2", primary: "first" }))
    expect(summary(byId)).toEqual(expectedRuns)
  })

  it("without the CSV: owners, phases and days from the names; the failed submission is imported (its status is unknown) and said so", async () => {
    const bulk = file("no-csv.zip", bulkDownloadV123(all))
    const result = await run(Import.importSubmissions(bulk, out("no-csv"), { deadline, teams, phase: "PhaseId2" }))
    expect(result.runs.map((r) => [r.team, r.run, r.primary, r.postDeadline, r.id, r.submittedDay])).toEqual([
      ["Baseline-overlap", 1, true, false, "4001", "2014-03-20"],
      ["Insight", 1, false, false, "4120", "2014-03-29"],
      ["Insight", 2, false, false, "4121", "2014-03-29"],
      ["Insight", 3, true, false, "4135", "2014-03-30"],
      ["MeaningFactory", 1, false, false, "4107", "2014-03-28"],
      ["MeaningFactory", 2, true, false, "4140", "2014-03-30"],
      ["MeaningFactory", 3, false, true, "4200", "2014-04-02"]
    ])
    expect(result.notes[0]).toContain("whether a submission failed on Codabench is unknown")
  })

  it("a submission on the deadline's day: without the CSV the name's missing hour may decide it, and then the import stops; the CSV settles it", async () => {
    // 23:59:30 on the deadline's day (23:59:00): the name says ??:59:30, which is before or after
    const close = sub(4150, "insight-dcu", "Test", "2014-03-31T23:59:30Z", "Finished", "last minute.zip", "Insight_run1primary.txt")
    // 10:20:00 that day: ??:20:00 is before 23:59:00 whatever the hour
    const early = sub(4149, "organisers", "Test", "2014-03-31T10:20:00Z", "Finished", "early.zip", "Baseline-overlap_run1primary.txt")
    const chosen = [...testPhase.filter((s) => s.status === "Finished"), close, early]
    const bulk = file("deadline-day.zip", bulkDownloadV123(chosen))
    const e = await failure(bulk, { deadline, teams })
    expect(e.problems).toEqual([
      {
        source: serverName(close).replace(/[:/\\]/g, "_"),
        reason: "made on 2014-03-31 at ??:59:30 UTC (the name gives no hour): it cannot be told whether it came after the deadline; give the submissions CSV"
      }
    ])
    expect(e.written).toBe(false)
    const withCsv = await run(Import.importSubmissions(bulk, out("deadline-day"), { deadline, teams, manifest: file("deadline-day.csv", csvExport("v1.23+", chosen)) }))
    expect(withCsv.runs.filter((r) => r.id === "4150" || r.id === "4149").map((r) => [r.id, r.postDeadline])).toEqual([
      ["4149", false],
      ["4150", true]
    ])
  })

  it("failed.txt: what the browser could not fetch stops the import, listed", async () => {
    const bulk = file("failed-txt.zip", bulkDownloadV123(testPhase.slice(1), [{ submission: testPhase[0], error: "HTTP 404" }]))
    const e = await failure(bulk, { manifest: file("failed-txt.csv", csvExport("v1.23+", testPhase)), teams })
    expect(e.problems).toEqual([{ source: serverName(testPhase[0]), reason: `Codabench could not download it (failed.txt: ${serverName(testPhase[0])} (HTTP 404))` }])
    expect(e.written).toBe(false)
  })

  it("a row that names another owner or file than the download is a problem, not a guess", async () => {
    const csv = csvExport("v1.23+", testPhase).replace(",insight-dcu,2014-03-29T17:30:00Z", ",mf_user,2014-03-29T17:30:00Z")
    const e = await failure(file("v123.zip", bulkDownloadV123(testPhase)), { manifest: file("wrong-owner.csv", csv), teams })
    expect(e.problems?.map((p) => p.reason)).toEqual([expect.stringMatching(/says its owner is "mf_user", the download's name "insight-dcu"$/)])
  })
})

describe("Codabench v1.22 and before: ID_{id}_{file}, written in blocks of 8 KiB", () => {
  it("joins each file's blocks in order, matches the CSV without ids by position (newest first), and ranks as the original runs", async () => {
    const bulk = file("v122.zip", bulkDownloadV122(testPhase))
    // every upload spans several blocks: the old import kept the last one only
    expect(testPhase.every((s) => s.bytes.length > 8192)).toBe(true)
    const { result, target } = await importWithCsv("v1.22-", "v122", bulk, "Owner,Created When,Status,Phase")
    expect(result.skipped).toEqual([{ source: `ID_4121_${storedFileName("w2v text8, raw.zip")}`, reason: "its status is Failed" }])
    for (const r of result.runs) expect(fs.readFileSync(r.path).equals(Buffer.from(all.find((s) => String(s.id) === r.id)!.bytes))).toBe(true)
    expect(await rankJson("sick2014", sickExample.gold, target)).toEqual(await rankJson("sick2014", sickExample.gold, sickExample.runs))
  })

  it("refuses to match by position a CSV of other submissions than the download's, or not newest first", async () => {
    const bulk = file("v122b.zip", bulkDownloadV122(testPhase))
    const fewer = await failure(bulk, { manifest: file("v122-fewer.csv", csvExport("v1.22-", testPhase.slice(1))), teams })
    expect(fewer.reason).toContain("has no submission ids (Codabench up to v1.22), so its rows are matched to the zips by position")
    expect(fewer.reason).toContain("it has 6 rows for 7 zips")
    expect(fewer.problems).toHaveLength(7)
    expect(fewer.written).toBe(false)
    const [head, ...rows] = csvExport("v1.22-", testPhase).split("\r\n").filter((l) => l !== "")
    const shuffled = await failure(bulk, { manifest: file("v122-sorted.csv", [head, ...rows.reverse()].map((l) => `${l}\r\n`).join("")), teams })
    expect(shuffled.reason).toContain("its rows are not newest first")
  })

  it("without the CSV, only zips named Team_runN have an owner: the others stop the import, listed", async () => {
    const named = [sub(5, "x", "Test", "2014-03-20T00:00:00Z", "Finished", "ECNU_run2.zip", "Insight_run1primary.txt"), sub(6, "x", "Test", "2014-03-21T00:00:00Z", "Finished", "ECNU_run1.zip", "Insight_run1primary.txt")]
    const ok = await run(Import.importSubmissions(file("v122-named.zip", bulkDownloadV122(named)), out("v122-named")))
    expect(ok.runs.map((r) => [r.team, r.run, r.id, r.primary])).toEqual([
      ["ECNU", 1, "5", false],
      ["ECNU", 2, "6", true]
    ])
    const e = await failure(file("v122-anon.zip", bulkDownloadV122([...named, testPhase[0]])))
    expect(e.problems).toEqual([{ source: "ID_4001_baseline.zip", reason: "no CSV export says whose submission it is (give the submissions CSV beside the zips or with --manifest)" }])
    expect(e.written).toBe(false)
  })

  const python = spawnSync("python3", ["-c", "import zipfile"], { encoding: "utf8" })
  it.skipIf(python.status !== 0)("a download written by Python's zipfile, as zip_generator writes it (writestr per 8 KiB block, ZIP_DEFLATED), imports the same", async () => {
    const folder = path.join(work, "py-uploads")
    fs.mkdirSync(folder, { recursive: true })
    for (const s of testPhase) fs.writeFileSync(path.join(folder, `ID_${s.id}_${storedFileName(s.uploaded)}`), s.bytes)
    const bulk = path.join(work, "v122-python.zip")
    const script = `
import os, sys, warnings, zipfile
warnings.simplefilter("ignore")  # zipfile warns "Duplicate name" for each block after the first
folder, target, names = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zip_file:
    for short_name in names:
        with open(os.path.join(folder, short_name), "rb") as fp:
            while True:
                block = fp.read(1024 * 8)
                if not block:
                    break
                zip_file.writestr(short_name, block)
`
    const r = spawnSync("python3", ["-c", script, folder, bulk, ...testPhase.map((s) => `ID_${s.id}_${storedFileName(s.uploaded)}`)], { encoding: "utf8" })
    expect(r.stderr).toBe("")
    const result = await run(Import.importSubmissions(bulk, out("v122-python"), { manifest: file("v122p.csv", csvExport("v1.22-", testPhase)), deadline, teams, primary: "first" }))
    expect(summary(result)).toEqual(expectedRuns)
    for (const x of result.runs) expect(fs.readFileSync(x.path).equals(Buffer.from(all.find((s) => String(s.id) === x.id)!.bytes))).toBe(true)
  })
})

describe("what cannot be imported is listed, and nothing is written (issue 22)", () => {
  it("owners named toString, constructor and __proto__ are teams like any other", async () => {
    const odd = ["toString", "constructor", "__proto__"].map((owner, k) => sub(700 + k, owner, "Test", `2014-03-2${k}T00:00:00Z`, "Finished", "submission.zip", "Insight_run1primary.txt"))
    const result = await run(Import.importSubmissions(file("odd.zip", bulkDownloadV123(odd)), out("odd"), { manifest: file("odd.csv", csvExport("v1.23+", odd)), teams }))
    expect(result.runs.map((r) => [r.team, r.run])).toEqual([
      ["__proto__", 1],
      ["constructor", 1],
      ["toString", 1]
    ])
  })

  it("a username holding the download name's own marks (bob_PhaseId1_2027-02-08_00-12_x) is read at the owner the CSV names, and the import goes on", async () => {
    const tricky = "bob_PhaseId1_2027-02-08_00-12_x"
    const subs = [
      sub(800, tricky, "Test", "2014-03-21T00:00:00Z", "Finished", "submission.zip", "Insight_run1primary.txt"),
      sub(801, "mf_user", "Test", "2014-03-22T00:00:00Z", "Finished", "submission.zip", "MeaningFactory_run1primary.txt")
    ]
    const result = await run(
      Import.importSubmissions(file("marks.zip", bulkDownloadV123(subs)), out("marks"), { manifest: file("marks.csv", csvExport("v1.23+", subs)), teams: { [tricky]: "Bob", mf_user: "MeaningFactory" } })
    )
    expect(result.runs.map((r) => [r.team, r.run, r.id])).toEqual([
      ["Bob", 1, "800"],
      ["MeaningFactory", 1, "801"]
    ])
    expect(Import.parseDownloadName(`800_${tricky}_PhaseId2_2014-03-21_00-00_submission.zip`, tricky)).toMatchObject({ owner: tricky, phaseId: "2", file: "submission.zip" })
  })

  it("a 300-character owner is no team name: listed, nothing written (no ENAMETOOLONG half-way); mapped to a team with --teams it imports", async () => {
    const long = "u".repeat(300)
    const subs = [testPhase[0], sub(800, long, "Test", "2014-03-22T00:00:00Z", "Finished", "submission.zip", "Insight_run1primary.txt")]
    const bulk = file("long.zip", bulkDownloadV123(subs))
    const manifest = file("long.csv", csvExport("v1.23+", subs))
    const e = await failure(bulk, { manifest, teams })
    expect(e.problems).toEqual([
      {
        source: serverName(subs[1]).replace(/[:/\\]/g, "_"),
        reason: `the team name "${long.slice(0, 77)}..." (the Codabench username) has 300 characters (a team name has at most 200); map the username to a team name with --teams`
      }
    ])
    expect(e.written).toBe(false)
    const team = "T".repeat(200)
    const ok = await run(Import.importSubmissions(bulk, out("long-mapped"), { manifest, teams: new Map([[long, team]]) }))
    expect(ok.runs.map((r) => [r.team.length, fs.existsSync(r.path) && Buffer.byteLength(path.basename(r.path)) <= 255])).toEqual([
      [200, true],
      [10, true]
    ])
  })

  it("entries ../../x.zip and /abs/y.zip are listed, never dropped in silence", async () => {
    const bulk = file("climbing.zip", zipSync({ [serverName(testPhase[0]).replace(/:/g, "_")]: testPhase[0].bytes, "../../x.zip": testPhase[1].bytes, "/abs/y.zip": testPhase[2].bytes }))
    const e = await failure(bulk, { manifest: file("climbing.csv", csvExport("v1.23+", testPhase)) })
    expect(e.problems).toEqual([
      { source: "../../x.zip", reason: 'its name is absolute or climbs out of the zip with "..": not unpacked' },
      { source: "/abs/y.zip", reason: 'its name is absolute or climbs out of the zip with "..": not unpacked' }
    ])
    expect(e.written).toBe(false)
  })

  it("0 runs imported is a failure, with why each was excluded", async () => {
    const failed = testPhase.filter((s) => s.status === "Failed")
    const e = await failure(file("only-failed.zip", bulkDownloadV123(failed)), { manifest: file("only-failed.csv", csvExport("v1.23+", failed)) })
    expect(e.reason).toContain("no submission of")
    expect(e.problems).toEqual([{ source: serverName(failed[0]).replace(/[:/\\]/g, "_"), reason: "its status is Failed" }])
    expect(e.written).toBe(false)
  })

  it("a date in the CSV that is no date, or not in the calendar, is listed with its file and line", async () => {
    const csv = csvExport("v1.23+", testPhase).replace("2014-03-29T17:30:00Z", "2014-02-30T17:30:00Z").replace("2014-03-20T00:00:00Z", "yesterday")
    const e = await failure(file("v123.zip", bulkDownloadV123(testPhase)), { manifest: file("bad-dates.csv", csv), teams })
    expect(e.problems?.map((p) => p.reason)).toEqual([
      'bad-dates.csv:8: "yesterday" is not a date (expected ISO 8601, e.g. 2017-01-31T23:59:00Z)',
      'bad-dates.csv:6: "2014-02-30T17:30:00Z" is not a date (expected ISO 8601, e.g. 2017-01-31T23:59:00Z)'
    ])
  })

  it("fails clearly on an input it cannot use at all", async () => {
    expect((await failure(path.join(work, "missing.zip"))).reason).toContain("does not exist")
    const empty = path.join(work, "empty")
    fs.mkdirSync(empty)
    expect((await failure(empty)).reason).toContain("holds no submission zips")
    const noOwner = file("no-owner.csv", "Created When,Submission ID\n2014-03-01T00:00:00Z,4107\n")
    expect((await failure(file("v123.zip", bulkDownloadV123(testPhase)), { manifest: noOwner })).reason).toContain("no Owner column")
    const used = out("used")
    fs.mkdirSync(used, { recursive: true })
    fs.writeFileSync(path.join(used, "x"), "")
    expect((await failure(file("v123.zip", bulkDownloadV123(testPhase)), { manifest: file("v123.csv", csvExport("v1.23+", testPhase)), teams }, used)).reason).toContain("is not empty")
  })

  it("a folder of the download's zips with its CSV imports as the zip does", async () => {
    const folder = path.join(work, "download-folder")
    fs.mkdirSync(folder)
    for (const s of testPhase) fs.writeFileSync(path.join(folder, serverName(s).replace(/[:/\\]/g, "_")), s.bytes)
    fs.writeFileSync(path.join(folder, "submissions.csv"), csvExport("v1.23+", testPhase))
    const result = await run(Import.importSubmissions(folder, out("folder"), { deadline, teams, primary: "first" }))
    expect(summary(result)).toEqual(expectedRuns)
    // by default the primary run is each team's last before the deadline
    const last = await run(Import.importSubmissions(folder, out("folder-last"), { deadline, teams }))
    expect(last.runs.filter((r) => r.primary).map((r) => [r.team, r.run])).toEqual([
      ["Baseline-overlap", 1],
      ["Insight", 2],
      ["MeaningFactory", 2]
    ])
  })
})

describe("a hostile bulk download", () => {
  // fflate's unzipSync trusted such archives; the import unpacks with formats' checked reader.
  it("is refused as a run zip would be: an encrypted entry, and overlapping entries (a zip bomb)", async () => {
    const error = (bytes: Uint8Array) => failure(file(`bulk-${Math.random()}.zip`, bytes)).then((e) => e.reason)
    const plain = zipSync({ "ID_1_a.zip": new Uint8Array(64), "ID_2_b.zip": new Uint8Array(64) }, { level: 0 })
    // bit 0 of the general-purpose flags (encrypted) in every local and central header
    const encrypted = plain.slice()
    for (let i = 0; i + 4 <= encrypted.length; i++) {
      const sig = encrypted[i] | (encrypted[i + 1] << 8) | (encrypted[i + 2] << 16) | (encrypted[i + 3] << 24)
      if (sig === 0x04034b50) encrypted[i + 6] |= 1
      if (sig === 0x02014b50) encrypted[i + 8] |= 1
    }
    expect(await error(encrypted)).toContain("encrypted")
    // the second central entry points at the first member's local header: two entries, one member
    const overlapping = plain.slice()
    const view = new DataView(overlapping.buffer)
    const centrals: Array<number> = []
    for (let i = 0; i + 4 <= overlapping.length; i++) if (view.getUint32(i, true) === 0x02014b50) centrals.push(i)
    expect(centrals).toHaveLength(2)
    view.setUint32(centrals[1] + 42, view.getUint32(centrals[0] + 42, true), true)
    expect(await error(overlapping)).toMatch(/overlap|unsafe|crafted|damaged/)
  })
})

describe("the CSV export (read with @stseval/formats' Csv)", () => {
  const bulk = () => file("csv-bulk.zip", bulkDownloadV123(testPhase.filter((s) => s.id === 4107 || s.id === 4120)))
  const importWith = (name: string, text: string, options: Import.Options = {}) => Import.importSubmissions(bulk(), out(`csv-${name}`), { manifest: file(name, text), ...options })
  const header = "\uFEFFSubmission ID,Owner,Notes,Created When,Status,Phase\r\n"
  // a quoted field holding a comma (the owner) and one holding a line break, commas and doubled quotes (notes)
  const mf = '4107,"mf, user","first line\r\nsecond, ""quoted"" line",2014-03-28T09:00:00Z,Finished,Test\r\n'

  it("reads quoted fields holding commas, doubled quotes and line breaks, a BOM and CRLF", async () => {
    // the download's name says mf_user: the row must say so too, so quote a comma into another column
    const result = await run(importWith("quoted.csv", `${header}${mf.replace('"mf, user"', "mf_user")}4120,insight-dcu,"a, b",2014-03-29T17:30:00Z,Finished,Test\r\n`, { teams: { mf_user: "MeaningFactory", "insight-dcu": "Insight" } }))
    expect(result.runs.map((r) => [r.team, r.owner, r.id, r.submitted])).toEqual([
      ["Insight", "insight-dcu", "4120", "2014-03-29T17:30:00.000Z"],
      ["MeaningFactory", "mf_user", "4107", "2014-03-28T09:00:00.000Z"]
    ])
  })

  it("a row after a quoted line break is named by its physical line", async () => {
    const e = await run(Effect.flip(importWith("late-row.csv", `${header}${mf.replace('"mf, user"', "mf_user")}4120,insight-dcu,,yesterday,Finished,Test\r\n`)))
    expect(e.problems?.map((p) => p.reason)).toEqual(['late-row.csv:4: "yesterday" is not a date (expected ISO 8601, e.g. 2017-01-31T23:59:00Z)'])
  })

  it("a file that is not CSV (a quote never closed) fails naming the file, the line and what was expected", async () => {
    const e = await run(Effect.flip(importWith("unclosed.csv", `${header}4107,mf_user,"never closed,2014-03-28T09:00:00Z,Finished,Test\r\n`)))
    expect(e.reason).toMatch(/^unclosed\.csv:\d+: error: the file is not valid CSV: /)
    expect(e.reason).toContain("expected comma-separated fields; a field holding a comma, a quote or a line break is quoted")
  })

  it("a file that is not text fails naming it", async () => {
    const e = await run(Effect.flip(importWith("binary.csv", "Owner,Submission ID\n\u0000\u0001\u0002,4107\n")))
    expect(e.reason).toMatch(/^binary\.csv(:\d+)?: error: /)
  })
})

describe("names and dates", () => {
  it("parseDownloadName reads both versions' names; an owner may hold _", () => {
    expect(Import.parseDownloadName("7_bob_the_user_PhaseId12_2027-02-08_00-12_submission_2.zip")).toEqual({
      _tag: "v1.23+",
      id: "7",
      owner: "bob_the_user",
      phaseId: "12",
      day: "2027-02-08",
      minute: 0,
      second: 12,
      file: "submission_2.zip"
    })
    expect(Import.parseDownloadName("ID_4107_submission.zip")).toEqual({ _tag: "v1.22-", id: "4107", file: "submission.zip" })
    expect(Import.parseDownloadName("ECNU_run1.zip")).toEqual({ _tag: "other", file: "ECNU_run1.zip" })
  })

  it("parseInstant reads ISO 8601 with microseconds or an offset, `YYYY-MM-DD HH:MM` and a day as UTC, and refuses anything else", () => {
    expect(Import.parseInstant("2024-07-26T11:17:05.123456Z")?.toISOString()).toBe("2024-07-26T11:17:05.123Z")
    expect(Import.parseInstant("2024-07-26T13:17:05+02:00")?.toISOString()).toBe("2024-07-26T11:17:05.000Z")
    expect(Import.parseInstant("2024-07-26 11:17")?.toISOString()).toBe("2024-07-26T11:17:00.000Z")
    expect(Import.parseInstant("2024-07-26")?.toISOString()).toBe("2024-07-26T00:00:00.000Z")
    for (const bad of ["26/07/2024", "2014-02-30", "12", "1", "2014-02-29T00:00:00Z", "2024-07-26T24:00:00Z", "2024-07-26T12:00:00+25:00"]) expect(Import.parseInstant(bad), bad).toBeUndefined()
  })
})

describe("a zip inside the submission zip: one rule in codabench score, import and rank", () => {
  it("Codabench's worker leaves myrun.zip in res/ and the scoring program opens it; imported, rank opens it too and gives the same figure; a third level fails both", async () => {
    const cli = file("stseval.mjs", "// not run here\n")
    const bundle = out("zip-in-zip-bundle")
    await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, out: bundle, cliBundle: cli, liveTest: true }))
    const runBytes = fs.readFileSync(path.join(sickExample.runs, "MeaningFactory_run1primary.txt"))
    const twice = zipSync({ "myrun.zip": zipSync({ "MeaningFactory_run1primary.txt": runBytes }) })
    const thrice = zipSync({ "myrun.zip": zipSync({ "inner.zip": zipSync({ "MeaningFactory_run1primary.txt": runBytes }) }) })
    // the worker: the upload extracted as it is into /app/input/res (`Run._get_bundle`, ZipFile.extractall)
    const worker = async (upload: Uint8Array) => {
      const app = prepareApp(bundle, "reference_data_test", unzipSync(upload))
      const outcome = await run(ScoringProgram.scoreCodabench(app.input, app.output))
      return { outcome, res: fs.readdirSync(path.join(app.input, "res")).sort() }
    }
    const scored = await worker(twice)
    expect(scored.res).toEqual(["metadata", "myrun.zip"])
    expect(scored.outcome.verdict).toBe("scored")
    const failed = await worker(thrice)
    expect(failed.outcome.verdict).toBe("rejected")
    expect(failed.outcome.reasons[0]).toContain("myrun.zip!inner.zip: a zip inside a zip inside the submission is not opened")

    const subs: Array<Submission> = [
      { id: 1, owner: "mf_user", phaseId: 2, phase: "Test", created: at("2014-03-28T09:00:00Z"), status: "Finished", uploaded: "submission.zip", bytes: twice },
      { id: 2, owner: "other", phaseId: 2, phase: "Test", created: at("2014-03-28T10:00:00Z"), status: "Finished", uploaded: "submission.zip", bytes: thrice }
    ]
    const target = out("zip-in-zip")
    await run(Import.importSubmissions(file("zip-in-zip.zip", bulkDownloadV123(subs)), target, { manifest: file("zip-in-zip.csv", csvExport("v1.23+", subs)), deadline, teams: { mf_user: "MeaningFactory", other: "Other" } }))
    const ranked = (await rankJson("sick2014", sickExample.gold, target, false)).find((r) => r.ranking === "relatedness")!
    const mf = ranked.entries.find((e) => e.team === "MeaningFactory")!
    expect(mf.rank).toBe(1)
    expect(mf.value).toBeCloseTo(scored.outcome.scores!.scores["relatedness_pearson"], 12)
    const direct = (await rankJson("sick2014", sickExample.gold, sickExample.runs)).find((r) => r.ranking === "relatedness")!
    expect(mf.value).toBe(direct.entries.find((e) => e.team === "MeaningFactory")!.value)
    // the third level: not ranked
    expect(ranked.entries.find((e) => e.team === "Other")?.rank ?? null).toBeNull()
  })
})
