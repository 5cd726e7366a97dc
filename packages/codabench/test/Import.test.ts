/**
 * From what an organiser downloads from Codabench back to a submissions folder: a fake
 * `bulk_submissions.zip` (one `ID_<id>_<file name>` zip per submission, as Codabench names them)
 * and the submissions table's CSV export; the import must rank exactly as the runs ranked directly.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { zipSync } from "fflate"
import { beforeAll, describe, expect, it } from "vitest"
import { Import } from "../src/index.js"
import { rankJson, run, sickExample } from "./support/fixtures.js"
import { tempDir } from "./support/worker.js"

interface Download {
  readonly id: number
  readonly owner: string
  readonly created: string
  readonly status: string
  readonly phase: string
  /** the run file (in examples/sick2014/submissions) the participant zipped */
  readonly run: string
}

// The submissions folder of examples/sick2014 as a Codabench test phase would have received it,
// plus a development-phase submission, a failed one and one after the deadline.
const downloads: ReadonlyArray<Download> = [
  { id: 4107, owner: "mf_user", created: "2014-03-28T09:00:00.123456Z", status: "Finished", phase: "Test", run: "MeaningFactory_run1primary.txt" },
  { id: 3990, owner: "mf_user", created: "2014-03-01T10:00:00Z", status: "Finished", phase: "Development", run: "MeaningFactory_run2.txt" },
  { id: 4120, owner: "insight-dcu", created: "2014-03-29T17:30:00Z", status: "Finished", phase: "Test", run: "Insight_run1primary.txt" },
  { id: 4121, owner: "insight-dcu", created: "2014-03-29T17:45:00Z", status: "Failed", phase: "Test", run: "Insight_run2.txt" },
  { id: 4135, owner: "insight-dcu", created: "2014-03-30T08:00:00Z", status: "Finished", phase: "Test", run: "Insight_run2.txt" },
  { id: 4140, owner: "mf_user", created: "2014-03-30T12:00:00+02:00", status: "Finished", phase: "Test", run: "MeaningFactory_run2.txt" },
  { id: 4001, owner: "organisers", created: "2014-03-20T00:00:00Z", status: "Finished", phase: "Test", run: "Baseline-overlap_run1primary.txt" },
  { id: 4200, owner: "mf_user", created: "2014-04-02T09:00:00Z", status: "Finished", phase: "Test", run: "MeaningFactory_run1primary.txt" }
]
const deadline = new Date("2014-03-31T23:59:00Z")
const teams = { mf_user: "MeaningFactory", "insight-dcu": "Insight", organisers: "Baseline-overlap" }

const csv = (rows: ReadonlyArray<Download>) =>
  [
    "Owner,Created When,Status,Phase,Submission ID,Filename",
    ...rows.map((d) => `${d.owner},${d.created},${d.status},"${d.phase}",${d.id},"submission, ${d.id}.zip"`)
  ].join("\r\n") + "\r\n"

const submissionZip = (d: Download) => zipSync({ [`predictions/${d.run}`]: fs.readFileSync(path.join(sickExample.runs, d.run)) })

let work: string
let bulk: string
let manifest: string

beforeAll(() => {
  work = tempDir()
  bulk = path.join(work, "bulk_submissions.zip")
  fs.writeFileSync(bulk, zipSync(Object.fromEntries(downloads.map((d) => [`ID_${d.id}_submission, ${d.id}.zip`, submissionZip(d)]))))
  manifest = path.join(work, "submissions.csv")
  fs.writeFileSync(manifest, csv(downloads))
})

describe("importSubmissions", () => {
  it("round-trips: the imported test-phase submissions rank exactly as the runs ranked directly", async () => {
    const out = path.join(work, "imported")
    const result = await run(Import.importSubmissions(bulk, out, { manifest, deadline, phase: "Test", teams, primary: "first" }))
    expect(result.runs.map((r) => [r.team, r.run, r.primary, r.postDeadline, r.id])).toEqual([
      ["Baseline-overlap", 1, true, false, "4001"],
      ["Insight", 1, true, false, "4120"],
      ["Insight", 2, false, false, "4135"],
      ["MeaningFactory", 1, true, false, "4107"],
      ["MeaningFactory", 2, false, false, "4140"],
      ["MeaningFactory", 3, false, true, "4200"]
    ])
    expect(result.skipped.map((s) => [s.source, s.reason])).toEqual([
      ["ID_3990_submission, 3990.zip", 'it belongs to phase "Development"'],
      ["ID_4121_submission, 4121.zip", "its status is Failed"]
    ])
    for (const ranking of ["relatedness", "entailment"]) {
      const imported = (await rankJson("sick2014", sickExample.gold, out)).find((r) => r.ranking === ranking)
      const direct = (await rankJson("sick2014", sickExample.gold, sickExample.runs)).find((r) => r.ranking === ranking)
      expect(imported).toEqual(direct)
      expect(imported!.entries.filter((e) => e.rank !== null).length).toBeGreaterThan(1)
    }
    // Without the post-deadline submission (which is ranked, marked), every run ranks as in the examples folder too.
    const inTime = path.join(work, "in-time.csv")
    fs.writeFileSync(inTime, csv(downloads.filter((d) => d.id !== 4200)))
    const allOut = path.join(work, "imported-in-time")
    await run(Import.importSubmissions(bulk, allOut, { manifest: inTime, deadline, phase: "Test", teams, primary: "first" }))
    expect(await rankJson("sick2014", sickExample.gold, allOut, false)).toEqual(await rankJson("sick2014", sickExample.gold, sickExample.runs, false))
  })

  it("writes run.json beside each zip: team, run, primary, post-deadline, and where it came from", () => {
    const out = path.join(work, "imported")
    const meta = JSON.parse(fs.readFileSync(path.join(out, "MeaningFactory_run3.run.json"), "utf8")) as Record<string, unknown>
    expect(meta).toEqual({
      team: "MeaningFactory",
      run: 3,
      primary: false,
      late: false,
      postDeadline: true,
      description: "Codabench submission 4200 by mf_user, 2014-04-02T09:00:00.000Z (ID_4200_submission, 4200.zip)"
    })
    expect(fs.readdirSync(out).filter((f) => !f.startsWith(".")).sort()).toEqual(
      ["Baseline-overlap_run1", "Insight_run1", "Insight_run2", "MeaningFactory_run1", "MeaningFactory_run2", "MeaningFactory_run3"].flatMap((s) => [`${s}.run.json`, `${s}.zip`]).sort()
    )
  })

  it("late and post-deadline reach the rankings: a post-deadline run is marked and never primary, a late one (within --late-until) is marked *", async () => {
    const imported = path.join(work, "imported")
    const post = (await rankJson("sick2014", sickExample.gold, imported, false)).find((r) => r.ranking === "relatedness")!.entries
    const run3 = post.find((e) => e.team === "MeaningFactory" && e.run === 3)!
    expect([run3.postDeadline, run3.late, run3.flags.includes("post-deadline")]).toEqual([true, false, true])
    const graced = path.join(work, "imported-late")
    const result = await run(
      Import.importSubmissions(bulk, graced, { manifest, deadline, lateUntil: new Date("2014-04-03T00:00:00Z"), phase: "Test", teams, primary: "last" })
    )
    expect(result.runs.filter((r) => r.team === "MeaningFactory").map((r) => [r.run, r.primary, r.late, r.postDeadline])).toEqual([
      [1, false, false, false],
      [2, false, false, false],
      [3, true, true, false]
    ])
    const meta = JSON.parse(fs.readFileSync(path.join(graced, "MeaningFactory_run3.run.json"), "utf8")) as Record<string, unknown>
    expect([meta["late"], meta["postDeadline"]]).toEqual([true, false])
    const late = (await rankJson("sick2014", sickExample.gold, graced)).find((r) => r.ranking === "relatedness")!.entries
    const entry = late.find((e) => e.team === "MeaningFactory")!
    expect([entry.run, entry.late, entry.flags, entry.rank !== null]).toEqual([3, true, ["late"], true])
  })

  it("by default the primary run is each team's last before the deadline; a folder of zips with its CSV works too", async () => {
    const folder = path.join(work, "download-folder")
    fs.mkdirSync(folder)
    for (const d of downloads) fs.writeFileSync(path.join(folder, `ID_${d.id}_submission, ${d.id}.zip`), submissionZip(d))
    fs.writeFileSync(path.join(folder, "submissions.csv"), csv(downloads))
    const result = await run(Import.importSubmissions(folder, path.join(work, "imported-last"), { deadline, phase: "test" }))
    expect(result.runs.filter((r) => r.primary).map((r) => [r.team, r.run])).toEqual([
      ["insight-dcu", 2],
      ["mf_user", 2],
      ["organisers", 1]
    ])
  })

  it("without a CSV, a zip named Team_runN still imports; others are listed as skipped", async () => {
    const folder = path.join(work, "no-csv")
    fs.mkdirSync(folder)
    fs.writeFileSync(path.join(folder, "ID_7_ECNU_run2.zip"), submissionZip(downloads[0]))
    fs.writeFileSync(path.join(folder, "ID_8_ECNU_run1.zip"), submissionZip(downloads[0]))
    fs.writeFileSync(path.join(folder, "ID_9_submission.zip"), submissionZip(downloads[0]))
    const result = await run(Import.importSubmissions(folder, path.join(work, "imported-no-csv")))
    expect(result.runs.map((r) => [r.team, r.run, r.id, r.primary])).toEqual([
      ["ECNU", 1, "7", false],
      ["ECNU", 2, "8", true]
    ])
    expect(result.skipped[0].reason).toContain("no CSV export says whose submission it is")
  })

  it("fails clearly on what it cannot use", async () => {
    const error = (input: string, options: Import.Options = {}, out = path.join(work, `o-${Math.random()}`)) =>
      run(Effect.flip(Import.importSubmissions(input, out, options))).then((e) => e.reason)
    expect(await error(path.join(work, "missing.zip"))).toContain("does not exist")
    const empty = path.join(work, "empty")
    fs.mkdirSync(empty)
    expect(await error(empty)).toContain("holds no submission zips")
    const badCsv = path.join(work, "bad.csv")
    fs.writeFileSync(badCsv, "Owner,Created When,Submission ID\nmf_user,yesterday,4107\n")
    expect(await error(bulk, { manifest: badCsv })).toBe('bad.csv:2: "yesterday" is not a date (expected ISO 8601, e.g. 2017-01-31T23:59:00Z)')
    const noOwner = path.join(work, "no-owner.csv")
    fs.writeFileSync(noOwner, "Created When,Submission ID\n2014-03-01T00:00:00Z,4107\n")
    expect(await error(bulk, { manifest: noOwner })).toContain("no Owner column")
    expect(await error(bulk, { manifest }, path.join(work, "imported"))).toContain("is not empty")
  })
})

describe("a hostile bulk download", () => {
  // fflate's unzipSync trusted such archives; the import now unpacks with formats' checked reader.
  it("is refused as a run zip would be: an encrypted entry, and overlapping entries (a zip bomb)", async () => {
    const work = tempDir("codabench-bulk-")
    const error = (bytes: Uint8Array) => {
      const file = path.join(work, `bulk-${Math.random()}.zip`)
      fs.writeFileSync(file, bytes)
      return run(Effect.flip(Import.importSubmissions(file, path.join(work, `o-${Math.random()}`)))).then((e) => e.reason)
    }
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
  const importWith = (name: string, text: string, options: Import.Options = {}) => {
    const file = path.join(work, name)
    fs.writeFileSync(file, text)
    return Import.importSubmissions(bulk, path.join(work, `o-${name}`), { manifest: file, ...options })
  }
  const header = "\uFEFFOwner,Notes,Created When,Status,Phase,Submission ID\r\n"
  // a quoted field holding a comma (the owner) and one holding a line break, commas and doubled quotes (notes)
  const mf = '"mf, user","first line\r\nsecond, ""quoted"" line",2014-03-28T09:00:00Z,Finished,Test,4107\r\n'

  it("reads quoted fields holding commas, doubled quotes and line breaks, a BOM and CRLF", async () => {
    const result = await run(
      importWith("quoted.csv", `${header}${mf}insight-dcu,,2014-03-29T17:30:00Z,Finished,Test,4120\r\n`, {
        teams: { "mf, user": "MeaningFactory", "insight-dcu": "Insight" }
      })
    )
    expect(result.runs.map((r) => [r.team, r.owner, r.id, r.submitted])).toEqual([
      ["Insight", "insight-dcu", "4120", "2014-03-29T17:30:00.000Z"],
      ["MeaningFactory", "mf, user", "4107", "2014-03-28T09:00:00.000Z"]
    ])
  })

  it("a row after a quoted line break is named by its physical line", async () => {
    const e = await run(Effect.flip(importWith("late-row.csv", `${header}${mf}insight-dcu,,yesterday,Finished,Test,4120\r\n`)))
    expect(e.reason).toBe('late-row.csv:4: "yesterday" is not a date (expected ISO 8601, e.g. 2017-01-31T23:59:00Z)')
  })

  it("a file that is not CSV (a quote never closed) fails naming the file, the line and what was expected", async () => {
    const e = await run(Effect.flip(importWith("unclosed.csv", `${header}mf_user,"never closed,2014-03-28T09:00:00Z,Finished,Test,4107\r\n`)))
    expect(e.reason).toMatch(/^unclosed\.csv:\d+: error: the file is not valid CSV: /)
    expect(e.reason).toContain("expected comma-separated fields; a field holding a comma, a quote or a line break is quoted")
  })

  it("a file that is not text fails naming it", async () => {
    const e = await run(Effect.flip(importWith("binary.csv", "Owner,Submission ID\n\u0000\u0001\u0002,4107\n")))
    expect(e.reason).toMatch(/^binary\.csv(:\d+)?: error: /)
  })
})

describe("parseInstant", () => {
  it("reads Codabench's dates: ISO 8601 with microseconds or an offset, and `YYYY-MM-DD HH:MM` as UTC", () => {
    expect(Import.parseInstant("2024-07-26T11:17:05.123456Z")?.toISOString()).toBe("2024-07-26T11:17:05.123Z")
    expect(Import.parseInstant("2024-07-26T13:17:05+02:00")?.toISOString()).toBe("2024-07-26T11:17:05.000Z")
    expect(Import.parseInstant("2024-07-26 11:17")?.toISOString()).toBe("2024-07-26T11:17:00.000Z")
    expect(Import.parseInstant("26/07/2024")).toBeUndefined()
  })
})
