/**
 * Discovering runs in a submissions folder (SPEC §2.3): files, folders and zips in real temporary
 * folders; names and run.json; hidden files; zip bombs and path traversal; run limits; ordering.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import { createRequire, syncBuiltinESMExports } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { deflateRawSync as deflateSync } from "node:zlib"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Effect, Exit } from "effect"
import { strToU8, zipSync } from "fflate"
import { afterAll, describe, expect, it } from "vitest"
import { rawZip } from "@stseval/vitest-config/zip"
import { Files, Issue, Registry, Submissions } from "@stseval/formats"

const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>) =>
  Effect.runPromise(effect.pipe(Effect.provide(NodeServices.layer)))

const sts2014 = Registry.get("sts2014")!
const sick2014 = Registry.get("sick2014")!

const temps: Array<string> = []
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true })
})
/** A temporary folder filled from a map of relative path -> content (string, bytes, or null for a folder). */
const tree = (files: Record<string, string | Uint8Array | null>): string => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-sub-"))
  temps.push(root)
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, rel)
    if (content === null) fs.mkdirSync(full, { recursive: true })
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true })
      fs.writeFileSync(full, content)
    }
  }
  return root
}
const codes = (issues: ReadonlyArray<Issue.Issue>) => issues.map((i) => i.code)
/** The run `id` among those a discovery found (it must be there). */
const runOf = async (found: Promise<Submissions.Discovered>, id: string) => (await found).runs.find((r) => r.meta.id === id)!
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe("parseRunName", () => {
  it.each([
    ["Team_run2primary", { team: "Team", run: 2, primary: true }],
    ["Team_run2", { team: "Team", run: 2, primary: false }],
    ["Team-run2", { team: "Team", run: 2, primary: false }],
    ["ECNU_run1primary.txt", { team: "ECNU", run: 1, primary: true }],
    ["The_Meaning_Factory_run3.txt", { team: "The_Meaning_Factory", run: 3, primary: false }],
    ["UNAL-NLP-run1.zip", { team: "UNAL-NLP", run: 1, primary: false }],
    ["Rerun_run1", { team: "Rerun", run: 1, primary: false }],
    ["team_RUN2_primary", { team: "team", run: 2, primary: true }]
  ])("%s", (name, expected) => {
    expect(Submissions.parseRunName(name)).toEqual(expected)
  })

  it.each(["submission.txt", "run1", "Team_runX", "Team_primary"])("%s does not parse", (name) => {
    expect(Submissions.parseRunName(name)).toBeUndefined()
  })
})

describe("metaFromName", () => {
  it("gives the id discover would give", () => {
    expect(Submissions.metaFromName("ECNU_run2primary.zip")).toEqual({ id: "ECNU/run2", team: "ECNU", run: 2, primary: true, late: false, corrected: false, postDeadline: false })
    expect(Submissions.metaFromName("results.txt")).toMatchObject({ id: "results", team: "results", run: undefined })
  })
})

describe("discover: STS (a run is a folder or a zip)", () => {
  const zip = zipSync({
    "UNAL_run2/": new Uint8Array(0),
    "UNAL_run2/STS.output.images.txt": strToU8("1.5\n2.5\n"),
    "UNAL_run2/.DS_Store": strToU8("junk"),
    "__MACOSX/UNAL_run2/._STS.output.images.txt": strToU8("junk"),
    "UNAL_run2/run.json": strToU8(JSON.stringify({ corrected: true, description: "fixed tokenizer" }))
  })
  const root = tree({
    "ECNU_run1/STS.output.headlines.txt": "3.2\n4.1\n",
    "ECNU_run1/STS.output.OnWN.txt": "1\n",
    "ECNU_run1/.hidden.txt": "x",
    "ECNU_run1/run.json": JSON.stringify({ late: true }),
    "ECNU_run2primary/run.json": JSON.stringify({ postDeadline: true }),
    "ECNU_run2primary/STS.output.headlines.txt": "1\n",
    "UNAL_run2.zip": zip,
    "LIPN-run1/STS.output.deft-forum.txt": "2\n",
    "weird name/STS.output.images.txt": "0\n",
    "Bad_run3/STS.output.images.txt": "0\n",
    "Bad_run3/run.json": '{ "team": "Bad", "primery": true }',
    "Meta_x.run.json": JSON.stringify({ team: "MetaTeam", run: 7, primary: true }),
    "Meta_x/STS.output.images.txt": "0\n",
    "loose-file.txt": "not a run",
    ".git/config": "hidden",
    "Many_run1/STS.output.images.txt": "0\n",
    "Many_run2/STS.output.images.txt": "0\n",
    "Many_run3/STS.output.images.txt": "0\n",
    "Many_run4/STS.output.images.txt": "0\n"
  })
  const found = run(Submissions.discover(root, sts2014))

  it("finds one run per folder and zip, sorted by team then run number", async () => {
    const { runs } = await found
    expect(runs.map((r) => r.meta.id)).toEqual([
      // its run.json is invalid: listed under its folder's name (team unknown)
      "Bad_run3",
      "ECNU/run1",
      "ECNU/run2",
      "LIPN/run1",
      "Many/run1",
      "Many/run2",
      "Many/run3",
      "Many/run4",
      "MetaTeam/run7",
      "UNAL/run2",
      "weird name"
    ])
    expect(runs.map((r) => r.kind)).toEqual(["folder", "folder", "folder", "folder", "folder", "folder", "folder", "folder", "folder", "zip", "folder"])
  })

  it("reads a folder run's files, sorted, without hidden files or run.json; run.json sets late", async () => {
    const ecnu = await runOf(found, "ECNU/run1")
    expect(ecnu.files.map((f) => f.name)).toEqual(["STS.output.OnWN.txt", "STS.output.headlines.txt"])
    expect(text(ecnu.files[1].bytes)).toBe("3.2\n4.1\n")
    expect(ecnu.files[1].path).toBe(path.join(root, "ECNU_run1", "STS.output.headlines.txt"))
    expect(ecnu.meta).toMatchObject({ team: "ECNU", run: 1, primary: false, late: true, corrected: false })
    expect(ecnu.issues).toEqual([])
    const ecnu2 = await runOf(found, "ECNU/run2")
    expect(ecnu2.meta).toMatchObject({ primary: true, late: false, postDeadline: true })
    expect(ecnu.meta.postDeadline).toBe(false)
  })

  it("reads a zip's entries by base name, skipping directories, __MACOSX and hidden files; run.json inside it", async () => {
    const unal = await runOf(found, "UNAL/run2")
    expect(unal.files.map((f) => [f.name, f.path, text(f.bytes)])).toEqual([
      ["STS.output.images.txt", `${path.join(root, "UNAL_run2.zip")}!UNAL_run2/STS.output.images.txt`, "1.5\n2.5\n"]
    ])
    expect(unal.meta).toMatchObject({ corrected: true, late: false, description: "fixed tokenizer" })
  })

  it("takes team and run from a run.json beside the run (<name>.run.json), without a bad-run-name warning", async () => {
    const meta = await runOf(found, "MetaTeam/run7")
    expect(meta.meta).toMatchObject({ team: "MetaTeam", run: 7, primary: true })
    expect(meta.issues).toEqual([])
  })

  it("a name that does not parse: team = the name, warning bad-run-name", async () => {
    const weird = (await found).runs.find((r) => r.meta.team === "weird name")!
    expect(weird.meta.run).toBeUndefined()
    expect(codes(weird.issues)).toEqual(["bad-run-name"])
    expect(weird.issues[0].severity).toBe("warning")
  })

  it("a bad run.json: an error bad-run-metadata naming the file and the field, and the run has no files (not scored under the name's team)", async () => {
    const bad = await runOf(found, "Bad_run3")
    expect(bad.issues.map((i) => [i.severity, i.code])).toEqual([["error", "bad-run-metadata"]])
    expect(bad.issues[0].file).toBe(path.join(root, "Bad_run3", "run.json"))
    expect(bad.issues[0].field).toBe("primery")
    expect(bad.issues[0].message).toContain("the run was not scored")
    expect(bad.issues[0].expected).toContain('"primary": boolean')
    // listed under its name (it needs an id), with nothing to score
    expect(bad.files).toEqual([])
    expect(bad.meta.primary).toBe(false)
  })

  it("folder issues: a loose file is not a run; a team over the run limit is named", async () => {
    const { issues } = await found
    expect(issues.map((i) => [i.code, i.severity])).toEqual([
      ["unknown-file", "warning"],
      ["run-limit", "warning"]
    ])
    expect(issues[0].file).toBe(path.join(root, "loose-file.txt"))
    expect(issues[1].message).toContain('team "Many" has 4 runs, more than the 3 allowed in sts2014')
    expect(issues[1].field).toBe("Many")
  })

  it("is deterministic: the same folder gives the same result", async () => {
    const again = await run(Submissions.discover(root, sts2014))
    expect(again.runs.map((r) => r.meta.id)).toEqual((await found).runs.map((r) => r.meta.id))
  })
})

describe("discover: SICK (a run is one file)", () => {
  const root = tree({
    "ECNU_run1primary.txt": "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3.5\n",
    "ECNU_run2.txt": "x",
    "The_Meaning_Factory_run1.txt": "x",
    "The_Meaning_Factory_run1.run.json": JSON.stringify({ late: true }),
    "submission.txt": "x",
    ".DS_Store": "x",
    "two-files/A_run1.txt": "x",
    "two-files/A_run2.txt": "x"
  })

  it("every top-level file is a run; metadata beside it applies; names give team, run and primary", async () => {
    const { runs, issues } = await run(Submissions.discover(root, sick2014))
    expect(runs.map((r) => [r.meta.id, r.kind, r.meta.primary])).toEqual([
      ["ECNU/run1", "file", true],
      ["ECNU/run2", "file", false],
      ["The_Meaning_Factory/run1", "file", false],
      ["submission", "file", false],
      ["two-files", "folder", false]
    ])
    expect(runs[2].meta.late).toBe(true)
    expect(runs[0].files.map((f) => f.name)).toEqual(["ECNU_run1primary.txt"])
    expect(codes(runs[3].issues)).toEqual(["bad-run-name"])
    // a folder holding two files is not one SICK run
    expect(codes(runs[4].issues)).toEqual(["bad-run-name", "unknown-file"])
    expect(issues).toEqual([])
  })
})

describe("discover: the run limit", () => {
  it("counts a team's runs however its name is spelt (as the ranking does: Submissions.teamKey)", async () => {
    const line = "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3.5\n"
    const root = tree({ "ECNU_run1primary.txt": line, "ecnu_run2.txt": line, "ECNU _run3.txt": line, "Other_run1.txt": line })
    const { issues } = await run(Submissions.discover(root, { ...sick2014, runLimit: 2 }))
    expect(issues.map((i) => [i.code, i.field])).toEqual([["run-limit", "ECNU"]])
    expect(issues[0].message).toContain('team "ECNU" has 3 runs, more than the 2 allowed')
  })

  it("counts names that look the same as one team (UTS #39 confusable skeletons): Cyrillic ЕCNU, Greek ΕCNU, ECNU and a blank Braille pattern", async () => {
    const line = "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3.5\n"
    const root = tree({ "ECNU_run1primary.txt": line, "Other_run1.txt": line })
    for (const [i, team] of ["\u0415CNU", "\u0395CNU", "ECNU\u2800"].entries()) {
      fs.writeFileSync(path.join(root, `Look${i}_run${i + 2}.txt`), line)
      fs.writeFileSync(path.join(root, `Look${i}_run${i + 2}.run.json`), JSON.stringify({ team, run: i + 2 }))
    }
    const { runs, issues } = await run(Submissions.discover(root, { ...sick2014, runLimit: 3 }))
    expect(new Set(runs.filter((r) => r.meta.team !== "Other").map((r) => Submissions.teamKey(r.meta.team)))).toEqual(new Set(["ecnu"]))
    expect(issues.map((i) => [i.code, i.field])).toEqual([["run-limit", "ECNU"]])
    expect(issues[0].message).toContain('team "ECNU" has 4 runs, more than the 3 allowed')
  })

  it("teamKey: case, width, invisible characters and look-alikes folded; a name that shows nothing is blank", () => {
    const same = ["ECNU", "ecnu", " ECNU ", "ECNU\u200b", "ＥＣＮＵ", "\u0415CNU", "\u0395CNU", "ECNU\u2800", "\u0415\u0421NU"]
    expect(new Set(same.map(Submissions.teamKey))).toEqual(new Set([Submissions.teamKey("ECNU")]))
    expect(Submissions.teamKey("ECNU")).not.toBe(Submissions.teamKey("ECNX"))
    for (const blank of ["", "   ", "\u200b", "\u2800", "\t\u200d\ufeff"]) expect([blank, Submissions.isBlankTeam(blank)]).toEqual([blank, true])
    expect(Submissions.isBlankTeam("A")).toBe(false)
    // what isBlankTeam takes for granted without computing the key: each printable ASCII character
    // but the space keeps a visible key, alone and among invisible ones
    for (let c = 0x21; c <= 0x7e; c++) {
      const ch = String.fromCharCode(c)
      for (const name of [ch, `\u200b${ch}\u2800`, ` ${ch} `]) expect([name, Submissions.teamKey(name) !== ""]).toEqual([name, true])
    }
  })

  it("refuses a run.json whose team shows nothing, as it refuses an invalid run.json: the run is not scored", async () => {
    const line = "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3.5\n"
    const root = tree({ "A_run1.txt": line, "A_run1.run.json": JSON.stringify({ team: "   " }), "B_run1.txt": line, "B_run1.run.json": JSON.stringify({ team: "\u200b" }) })
    const { runs } = await run(Submissions.discover(root, sick2014))
    for (const r of runs) {
      expect(r.files).toEqual([])
      expect(r.meta.identityUnknown).toBe(true)
      expect(r.issues.find((i) => i.code === "bad-run-metadata")?.message).toContain("at least one visible character")
    }
  })
})

describe("zip safety", () => {
  it("refuses a zip whose uncompressed size passes the cap (zip bomb), without unpacking it", async () => {
    const zeros = new Uint8Array(2 * 1024 * 1024)
    const bomb = zipSync({ "Bomb_run1/STS.output.images.txt": zeros }, { level: 9 })
    expect(bomb.length).toBeLessThan(64 * 1024)
    const root = tree({ "Bomb_run1.zip": bomb })
    const { runs } = await run(Submissions.discover(root, sts2014, { maxZipBytes: 1024 * 1024 }))
    expect(runs[0].files).toEqual([])
    expect(codes(runs[0].issues)).toEqual(["too-large"])
    expect(runs[0].issues[0].severity).toBe("error")
  })

  it("skips entries that climb out of the zip or are absolute (path traversal), keeps the rest", () => {
    const z = zipSync({
      "../evil.txt": strToU8("x"),
      "/etc/passwd": strToU8("x"),
      "a/../../b.txt": strToU8("x"),
      "ok/STS.output.images.txt": strToU8("1\n")
    })
    const read = Submissions.readZip(z, "sub/T_run1.zip")
    expect(read.files.map((f) => f.name)).toEqual(["STS.output.images.txt"])
    expect(read.issues.map((i) => [i.code, i.severity])).toEqual([
      ["unknown-file", "error"],
      ["unknown-file", "error"],
      ["unknown-file", "error"]
    ])
    expect(read.issues.map((i) => i.found).sort()).toEqual(["../evil.txt", "/etc/passwd", "a/../../b.txt"])
  })

  it("a zip with two entries of the same name is refused whole (not \"the second wins\")", () => {
    // fflate writes one entry per key: the second entry of the same name is added by hand
    const one = zipSync({ "T_run1.txt": strToU8("pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t1\n") })
    const two = zipSync({ "T_run1.txt": strToU8("pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t5\n"), "U_run1.txt": strToU8("x") })
    const twin = renameEntry(two, "U_run1.txt", "T_run1.txt")
    expect(Submissions.readZip(one, "sub/T_run1.zip").files).toHaveLength(1)
    const read = Submissions.readZip(twin, "sub/T_run1.zip")
    expect(read.files).toEqual([])
    expect(read.issues).toMatchObject([{ severity: "error", code: "unsafe-zip", file: "sub/T_run1.zip" }])
    expect(read.issues[0].message).toContain('two of its entries are named "T_run1.txt"')
  })

  it("a file that is not a zip gives file-unreadable, not a crash", () => {
    const read = Submissions.readZip(strToU8("this is not a zip"), "sub/T_run1.zip")
    expect(codes(read.issues)).toEqual(["file-unreadable"])
  })

  it("a zip whose only file is a zip (the run zipped twice, as Codabench's worker leaves it in res/) is read as that zip; one level only", () => {
    const run = { "STS.output.images.txt": strToU8("1\n2\n") }
    const twice = Submissions.readZip(zipSync({ "myrun.zip": zipSync(run), "run.json": strToU8("{}") }), "T_run1.zip")
    expect(twice.opened).toBe("myrun.zip")
    expect(twice.files.map((f) => [f.name, f.path, text(f.bytes)])).toEqual([["STS.output.images.txt", "T_run1.zip!myrun.zip!STS.output.images.txt", "1\n2\n"]])
    expect(twice.metadata.map((m) => m.path)).toEqual(["T_run1.zip!run.json"])
    expect(twice.issues).toEqual([])
    // three levels: the zip inside the opened one is not opened
    const thrice = Submissions.readZip(zipSync({ "a.zip": zipSync({ "b.zip": zipSync(run) }) }), "T_run1.zip")
    expect(thrice.files).toEqual([])
    expect(thrice.issues.map((i) => [i.code, i.file, i.message])).toEqual([
      ["unknown-file", "T_run1.zip!a.zip!b.zip", 'a zip inside a zip inside the run is not opened: "b.zip" (put the run\'s files in one zip)']
    ])
    // beside other files: not opened, said so
    const beside = Submissions.readZip(zipSync({ "myrun.zip": zipSync(run), "README.txt": strToU8("hi") }), "T_run1.zip")
    expect(beside.opened).toBeUndefined()
    expect(beside.files.map((f) => f.name)).toEqual(["README.txt"])
    expect(beside.issues[0].message).toContain("opened only when it is the zip's only file")
  })

  it("a zip inside the zip is unpacked within what is left of the same byte cap", () => {
    const inner = zipSync({ "STS.output.images.txt": new Uint8Array(2 * MiB).fill(0x31) }, { level: 0 })
    const outer = zipSync({ "myrun.zip": inner }, { level: 0 })
    expect(Submissions.readZip(outer, "T_run1.zip", 5 * MiB).files).toHaveLength(1)
    // 2 MiB for the inner zip, then 2 MiB more for its file: over 3 MiB in all
    const read = Submissions.readZip(outer, "T_run1.zip", 3 * MiB)
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => i.code)).toEqual(["too-large"])
  })

  it("two entries with the same base name: the second is skipped with an error", () => {
    const z = zipSync({ "a/STS.output.images.txt": strToU8("1\n"), "b/STS.output.images.txt": strToU8("2\n") })
    const read = Submissions.readZip(z, "T_run1.zip")
    expect(read.files.map((f) => text(f.bytes))).toEqual(["1\n"])
    expect(codes(read.issues)).toEqual(["unknown-file"])
  })
})

// A minimal zip writer, independent of the reader under test, that can lie: declared sizes, flags,
// and central-directory entries pointing at any local header (the shapes of zip bombs).
const crc32 = (bytes: Uint8Array): number => {
  let c = ~0
  for (const b of bytes) {
    c ^= b
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
  }
  return ~c >>> 0
}
const MiB = 1024 * 1024

describe("zip safety: bombs, lies and encryption", () => {
  it("the writer above makes zips the reader accepts when they are honest", () => {
    const data = strToU8("1\n2\n")
    const read = Submissions.readZip(rawZip([{ name: "STS.output.images.txt", data, crc: crc32(data) }]), "T_run1.zip")
    expect(read.issues).toEqual([])
    expect(read.files.map((f) => text(f.bytes))).toEqual(["1\n2\n"])
  })

  it("a stored-entry bomb (500 central entries on one stored member, size 0 declared) is refused as overlapping", () => {
    const member = new Uint8Array(MiB).fill(0x31)
    const locals = [{ name: "STS.output.images.txt", data: member, size: 0 }]
    const bomb = rawZip(locals, Array.from({ length: 500 }, () => 0))
    const read = Submissions.readZip(bomb, "sub/Bomb_run1.zip", 16 * MiB)
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => [i.severity, i.code])).toEqual([["error", "unsafe-zip"]])
    expect(read.issues[0].message).toContain("overlap")
  })

  it("stored entries declaring size 0 count their real size: the first one is refused, nothing is copied past it", () => {
    const locals = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, data: new Uint8Array(MiB).fill(0x31), size: 0 }))
    const read = Submissions.readZip(rawZip(locals), "sub/Big_run1.zip", 3 * MiB)
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => [i.severity, i.code])).toEqual([["error", "unsafe-zip"]])
    expect(read.issues[0].message).toContain(`declares 0 bytes but holds ${MiB}`)
  })

  it("honest stored entries are capped by the bytes unpacked so far", () => {
    const one = new Uint8Array(MiB).fill(0x31)
    const locals = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, data: one, crc: crc32(one) }))
    const read = Submissions.readZip(rawZip(locals), "sub/Big_run1.zip", 3 * MiB)
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => [i.severity, i.code])).toEqual([["error", "too-large"]])
    expect(read.issues[0].message).toContain(`unpacks to more than ${3 * MiB} bytes`)
  })

  it("a deflate bomb declaring 10 bytes is stopped at 10 bytes of output, not inflated whole or cut silently", () => {
    const zeros = new Uint8Array(8 * MiB)
    const deflated = deflateSync(zeros, { level: 9 })
    expect(deflated.length).toBeLessThan(64 * 1024)
    const bomb = rawZip([{ name: "STS.output.images.txt", data: deflated, method: 8, size: 10, crc: crc32(zeros) }])
    const read = Submissions.readZip(bomb, "sub/Bomb_run1.zip", MiB)
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => i.code)).toEqual(["unsafe-zip"])
    expect(read.issues[0].message).toContain("declares 10 bytes but unpacks to more")
  })

  it("a deflated member larger than the cap is stopped by its actual output while inflating", () => {
    const zeros = new Uint8Array(8 * MiB)
    const bomb = rawZip([{ name: "STS.output.images.txt", data: deflateSync(zeros, { level: 9 }), method: 8, crc: crc32(zeros), size: zeros.length }])
    const read = Submissions.readZip(bomb, "sub/Bomb_run1.zip", MiB)
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => i.code)).toEqual(["too-large"])
    expect(read.issues[0].message).toContain(`unpacks to more than ${MiB} bytes`)
  })

  it("an entry whose declared size is a lie (under the cap) is refused, not cut to the declared size", () => {
    const content = strToU8("1\n".repeat(50))
    const z = rawZip([{ name: "STS.output.images.txt", data: deflateSync(content), method: 8, size: 10, crc: crc32(content) }])
    const read = Submissions.readZip(z, "T_run1.zip")
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => i.code)).toEqual(["unsafe-zip"])
    expect(read.issues[0].message).toContain("declares 10 bytes but unpacks to more")
    // and one declaring more than it holds
    const short = rawZip([{ name: "STS.output.images.txt", data: deflateSync(content), method: 8, size: 200, crc: crc32(content) }])
    expect(Submissions.readZip(short, "T_run1.zip").issues[0].message).toContain("declares 200 bytes but holds 100")
  })

  it("an encrypted entry says the zip is encrypted (not 'unexpected EOF')", () => {
    const data = strToU8("garbage that would be ciphertext")
    const z = rawZip([{ name: "STS.output.images.txt", data, flags: 1, crc: 0 }])
    const read = Submissions.readZip(z, "sub/Secret_run1.zip")
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => [i.severity, i.code])).toEqual([["error", "encrypted"]])
    expect(read.issues[0].message).toContain("the zip is encrypted")
  })

  it("a zip with more entries than a run can have is refused before anything is unpacked", () => {
    const locals = Array.from({ length: 1001 }, (_, i) => ({ name: `f${i}.txt`, data: new Uint8Array(0) }))
    const read = Submissions.readZip(rawZip(locals), "sub/Many_run1.zip")
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => i.code)).toEqual(["too-large"])
    expect(read.issues[0].message).toContain("1001 entries")
  })

  it("a damaged entry (CRC mismatch) is unreadable, naming the entry", () => {
    const data = strToU8("1\n2\n")
    const read = Submissions.readZip(rawZip([{ name: "STS.output.images.txt", data, crc: crc32(data) ^ 1 }]), "T_run1.zip")
    expect(read.files).toEqual([])
    expect(read.issues.map((i) => i.code)).toEqual(["file-unreadable"])
    expect(read.issues[0].message).toContain("STS.output.images.txt")
  })

  it("a zip cut short (still being uploaded) is file-unreadable", () => {
    const z = zipSync({ "STS.output.images.txt": strToU8("1\n2\n") })
    expect(codes(Submissions.readZip(z.subarray(0, z.length - 10), "T_run1.zip").issues)).toEqual(["file-unreadable"])
  })
})

describe("links: nothing outside the submissions folder is read through a run", () => {
  const secret = "root:x:0:0:root:/root:/bin/bash\n"
  const outsideDir = tree({ "passwd": secret, "Other_run1/STS.output.images.txt": "4\n" })
  const root = tree({
    "Good_run1/STS.output.images.txt": "1\n",
    "Good_run1/STS.output.headlines.txt": "2\n",
    "Inner_run1/STS.output.images.txt": "3\n",
    "Sick_run1.txt": "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3\n"
  })
  fs.symlinkSync(path.join(outsideDir, "passwd"), path.join(root, "Inner_run1", "STS.output.headlines.txt"))
  fs.symlinkSync(path.join(root, "Good_run1", "STS.output.headlines.txt"), path.join(root, "Inner_run1", "STS.output.OnWN.txt"))
  fs.symlinkSync(".", path.join(root, "Loop_run1"))
  fs.symlinkSync(path.join(outsideDir, "Other_run1"), path.join(root, "Out_run1"))
  fs.symlinkSync("Good_run1", path.join(root, "Copy_run1"))
  const sickRoot = tree({ "Ok_run1.txt": "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3\n" })
  fs.symlinkSync(path.join(outsideDir, "passwd"), path.join(sickRoot, "Passwd_run1.txt"))
  const found = run(Submissions.discover(root, sts2014))

  it("a run file that is a link to /etc/passwd-like content: refused, nothing of it read or shown", async () => {
    const { runs } = await run(Submissions.discover(sickRoot, sick2014))
    const bad = runs.find((r) => r.meta.id === "Passwd/run1")!
    expect(bad.files).toEqual([])
    expect(bad.issues.map((i) => [i.severity, i.code])).toEqual([["error", "outside-folder"]])
    expect(bad.issues[0].message).toContain("outside the submissions folder")
    expect(JSON.stringify(runs)).not.toContain("root:x")
    // nor where the link points: on a shared scoring server that is the server's path
    expect(JSON.stringify(runs)).not.toContain(outsideDir)
    expect(JSON.stringify(runs)).not.toContain(fs.realpathSync(outsideDir))
    // loadRun of one entry (as the watcher does) refuses it too
    const one = await run(Submissions.loadRun(path.join(sickRoot, "Passwd_run1.txt"), sick2014))
    expect(one.files).toEqual([])
    expect(codes(one.issues)).toEqual(["outside-folder"])
  })

  // Each refused whole: no file read, one outside-folder issue whose message says why (the second word for word).
  it.each([
    ["Loop_run1 -> . (the submissions folder itself) is refused, not read as another team's run", "Loop/run1", expect.stringContaining("the submissions folder itself")],
    ["a run folder that is a link out of the submissions folder is refused", "Out/run1", "the run is a link to a place outside the submissions folder; runs are read only inside it, so it was not read"],
    ["a run that is a link to another run is refused (its files would be scored twice)", "Copy/run1", expect.stringContaining("Good_run1")]
  ])("%s", async (_title, id, message) => {
    const refused = await runOf(found, id)
    expect(refused.files).toEqual([])
    expect(codes(refused.issues)).toEqual(["outside-folder"])
    expect(refused.issues[0].message).toEqual(message)
  })

  it("inside a run folder, a link pointing out of the run's folder is refused; the run's other files are read", async () => {
    const inner = await runOf(found, "Inner/run1")
    expect(inner.files.map((f) => f.name)).toEqual(["STS.output.images.txt"])
    expect(inner.issues.map((i) => [i.code, i.file])).toEqual([
      ["outside-folder", path.join(root, "Inner_run1", "STS.output.OnWN.txt")],
      ["outside-folder", path.join(root, "Inner_run1", "STS.output.headlines.txt")]
    ])
    expect(JSON.stringify(inner)).not.toContain("root:x")
    // the targets are not named: neither the file outside nor the other run's file
    expect(inner.issues.map((i) => i.message)).toEqual([
      "STS.output.OnWN.txt is a link to a place outside the run's folder; files are read only inside it, so it was not read",
      "STS.output.headlines.txt is a link to a place outside the run's folder; files are read only inside it, so it was not read"
    ])
  })

  it("ordinary runs beside them are unaffected", async () => {
    const good = await runOf(found, "Good/run1")
    expect(good.files.map((f) => f.name)).toEqual(["STS.output.headlines.txt", "STS.output.images.txt"])
    expect(good.issues).toEqual([])
  })
})

describe("a run zipped twice, as discover reads it for score, rank and the watcher", () => {
  it("a submissions folder's Team_run1.zip holding only myrun.zip is the run of myrun.zip's files, named from the outer zip", async () => {
    const inner = zipSync({ "STS.output.track5.en-en.txt": strToU8("1\n2\n") })
    const root = tree({ "Team_run1.zip": zipSync({ "myrun.zip": inner }) })
    const found = await run(Submissions.discover(root, Registry.get("sts2017")!))
    expect(found.runs.map((r) => [r.meta.team, r.meta.run, r.files.map((f) => f.name)])).toEqual([["Team", 1, ["STS.output.track5.en-en.txt"]]])
    expect(found.runs[0].issues).toEqual([])
  })
})

describe("runs that cannot be scored as given", () => {
  it("a SICK run folder holding 2 files is an error and has no files to score (not the alphabetically first)", async () => {
    const root = tree({
      "Two_run1/Two_run1.txt": "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3\n",
      "Two_run1/notes.txt": "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t4\n"
    })
    const r = await run(Submissions.loadRun(path.join(root, "Two_run1"), sick2014))
    expect(r.files).toEqual([])
    expect(r.issues.map((i) => [i.severity, i.code])).toEqual([["error", "unknown-file"]])
    expect(r.issues[0].message).toContain("a run of sick2014 is one file, but this folder holds 2: Two_run1.txt, notes.txt")
  })

  it("an STS run whose files match no dataset: an error listing the expected file names", async () => {
    const root = tree({ "Arabic_run1/track1.txt": "1\n", "Arabic_run1/track2.txt": "2\n" })
    const sts2017 = Registry.get("sts2017")!
    const r = await run(Submissions.loadRun(path.join(root, "Arabic_run1"), sts2017))
    const error = r.issues.find((i) => i.severity === "error")!
    expect(error.code).toBe("missing-dataset")
    expect(error.message).toContain("no file of the run is named like a dataset file of sts2017")
    expect(error.message).toContain("track1.txt, track2.txt")
    expect(error.expected).toContain("STS.output.track1.ar-ar.txt")
    expect(error.expected).toContain("STS.output.track6.tr-en.txt")
  })

  it("an STS run with one known and one unknown file is not an error here (scoring warns about the unknown one)", async () => {
    const root = tree({ "Mixed_run1/STS.output.images.txt": "1\n", "Mixed_run1/readme.txt": "x\n" })
    const r = await run(Submissions.loadRun(path.join(root, "Mixed_run1"), sts2014))
    expect(Issue.hasErrors(r.issues)).toBe(false)
  })
})

describe("loadRun", () => {
  const root = tree({
    "ECNU_run1primary.txt": "x\n",
    "ECNU_run2/STS.output.headlines.txt": "1\n",
    "ECNU_run3.zip": zipSync({ "STS.output.headlines.txt": strToU8("2\n") }),
    "Empty_run1": null
  })

  it("loads a file, a folder and a zip given directly", async () => {
    const file = await run(Submissions.loadRun(path.join(root, "ECNU_run1primary.txt"), sick2014))
    expect([file.kind, file.meta.id, file.meta.primary, file.files.length]).toEqual(["file", "ECNU/run1", true, 1])
    const folder = await run(Submissions.loadRun(path.join(root, "ECNU_run2"), sts2014))
    expect([folder.kind, folder.meta.id, folder.files.map((f) => f.name)]).toEqual(["folder", "ECNU/run2", ["STS.output.headlines.txt"]])
    const zip = await run(Submissions.loadRun(path.join(root, "ECNU_run3.zip"), sts2014))
    expect([zip.kind, zip.meta.id, zip.files.map((f) => f.path)]).toEqual([
      "zip",
      "ECNU/run3",
      [`${path.join(root, "ECNU_run3.zip")}!STS.output.headlines.txt`]
    ])
  })

  it("a run folder unzipped into itself: files and run.json one level down are found", async () => {
    const nested = tree({
      "Nest_run1/Nest_run1/STS.output.images.txt": "1\n",
      "Nest_run1/Nest_run1/run.json": JSON.stringify({ primary: true })
    })
    const r = await run(Submissions.loadRun(path.join(nested, "Nest_run1"), sts2014))
    expect(r.files.map((f) => f.name)).toEqual(["STS.output.images.txt"])
    expect(r.meta).toMatchObject({ id: "Nest/run1", primary: true })
    expect(r.issues).toEqual([])
  })

  it("an empty run folder is an error issue", async () => {
    const empty = await run(Submissions.loadRun(path.join(root, "Empty_run1"), sts2014))
    expect(codes(empty.issues)).toEqual(["empty-file"])
  })

  it("a path that does not exist fails with a PlatformError", async () => {
    const exit = await Effect.runPromiseExit(
      Submissions.loadRun(path.join(root, "nope"), sts2014).pipe(Effect.provide(NodeServices.layer))
    )
    expect(exit._tag).toBe("Failure")
  })
})

describe("a run.json that cannot be used: the run is not scored", () => {
  const big = `{ "team": "Other", "description": "${"x".repeat(1024 * 1024)}" }`
  const root = tree({
    "Big_run1primary/STS.output.images.txt": "1\n",
    "Big_run1primary/run.json": big,
    "Beside_run1primary/STS.output.images.txt": "1\n",
    "Beside_run1primary.run.json": big,
    "Zipped_run1primary.zip": zipSync({ "STS.output.images.txt": strToU8("1\n"), "run.json": strToU8(big) }),
    "Broken_run1primary/STS.output.images.txt": "1\n",
    "Broken_run1primary/run.json": '{ "team": "Other", ',
    "Fine_run1primary/STS.output.images.txt": "1\n",
    "Fine_run1primary/run.json": JSON.stringify({ team: "Fine", run: 1 })
  })
  const outside = tree({ "run.json": JSON.stringify({ team: "Other" }) })
  fs.mkdirSync(path.join(root, "Linked_run1primary"))
  fs.writeFileSync(path.join(root, "Linked_run1primary", "STS.output.images.txt"), "1\n")
  fs.symlinkSync(path.join(outside, "run.json"), path.join(root, "Linked_run1primary", "run.json"))
  const found = run(Submissions.discover(root, sts2014))
  const byId = (id: string) => runOf(found, id)

  it.each([
    ["Big_run1primary", "Big_run1primary/run.json"],
    ["Beside_run1primary", "Beside_run1primary.run.json"],
    ["Zipped_run1primary.zip", "Zipped_run1primary.zip!run.json"]
  ])("%s: a run.json over 1 MiB is bad-run-metadata naming it and the limit; no files", async (id, file) => {
    const r = await byId(id)
    expect(r.files).toEqual([])
    expect(r.issues.map((i) => [i.severity, i.code, i.file])).toEqual([["error", "bad-run-metadata", path.join(root, file)]])
    expect(r.issues[0].message).toContain("more than the limit of 1048576 bytes (1 MiB)")
    expect(r.issues[0].message).toContain("the run was not scored")
    expect(r.issues[0].expected).toBe("a run.json of at most 1 MiB")
    // the run.json's team is not known, and the name's is not used to score it
    expect(r.meta.team).not.toBe("Other")
  })

  it("a run.json that is not JSON: bad-run-metadata saying so; no files", async () => {
    const r = await byId("Broken_run1primary")
    expect(r.files).toEqual([])
    expect(r.issues.map((i) => [i.code, i.file])).toEqual([["bad-run-metadata", path.join(root, "Broken_run1primary", "run.json")]])
    expect(r.issues[0].message).toMatch(/^run\.json is not valid JSON \(.+\); the run was not scored/)
    expect(r.issues[0].expected).toBe("a JSON object")
  })

  it("a run.json that is a link out of the run: bad-run-metadata, not read, no files", async () => {
    const r = await byId("Linked_run1primary")
    expect(r.files).toEqual([])
    expect(r.issues.map((i) => [i.code, i.file])).toEqual([["bad-run-metadata", path.join(root, "Linked_run1primary", "run.json")]])
    expect(r.issues[0].message).toContain("is a link to a place outside the run's folder")
    expect(r.issues[0].message).not.toContain(outside)
  })

  it("a valid run.json beside them is used as before", async () => {
    const r = await byId("Fine/run1")
    expect(r.issues).toEqual([])
    expect(r.files.map((f) => f.name)).toEqual(["STS.output.images.txt"])
  })
})

describe("a zip holding several run.json: ambiguous, the run is not scored", () => {
  const root = tree({
    "Two_run1primary.zip": zipSync({
      "STS.output.images.txt": strToU8("1\n"),
      "run.json": strToU8(JSON.stringify({ team: "Two", run: 1, primary: true })),
      "inner/run.json": strToU8(JSON.stringify({ team: "Other", run: 1, primary: true }))
    }),
    "One_run1primary.zip": zipSync({ "One_run1primary/STS.output.images.txt": strToU8("1\n"), "One_run1primary/run.json": strToU8(JSON.stringify({ late: true })) })
  })
  const found = run(Submissions.discover(root, sts2014))

  it("bad-run-metadata naming the zip, every run.json found and what was expected; no files; never the last one silently", async () => {
    const { runs } = await found
    const two = runs.find((r) => r.path === path.join(root, "Two_run1primary.zip"))!
    expect(two.files).toEqual([])
    expect(two.issues.map((i) => [i.severity, i.code, i.file])).toEqual([["error", "bad-run-metadata", path.join(root, "Two_run1primary.zip")]])
    expect(two.issues[0].message).toContain('"inner/run.json"')
    expect(two.issues[0].message).toContain('"run.json"')
    expect(two.issues[0].message).toContain("the run was not scored")
    expect(two.issues[0].expected).toBe("one run.json in the run's zip")
    expect(two.issues[0].found).toBe("2 run.json files: inner/run.json, run.json")
    // neither run.json's team is taken
    expect(two.meta.team).not.toBe("Other")
    expect(two.meta.team).not.toBe("Two")
  })

  it("the other runs of the folder are read as before (one run.json in a zip, one folder down, is used)", async () => {
    const one = await runOf(found, "One/run1")
    expect(one.issues).toEqual([])
    expect(one.meta).toMatchObject({ team: "One", run: 1, primary: true, late: true })
    expect(one.files.map((f) => f.name)).toEqual(["STS.output.images.txt"])
  })

  it("a folder run holding several run.json (at any depth) is ambiguous the same way", async () => {
    const folder = tree({
      "Deep_run1primary/STS.output.images.txt": "1\n",
      "Deep_run1primary/run.json": JSON.stringify({ team: "Deep" }),
      "Deep_run1primary/copy/run.json": JSON.stringify({ team: "Other" })
    })
    const r = await run(Submissions.loadRun(path.join(folder, "Deep_run1primary"), sts2014))
    expect(r.files).toEqual([])
    expect(r.issues.map((i) => [i.code, i.file, i.expected, i.found])).toEqual([
      ["bad-run-metadata", path.join(folder, "Deep_run1primary"), "one run.json in the run's folder", `2 run.json files: ${path.join("copy", "run.json")}, run.json`]
    ])
    expect(r.meta).toMatchObject({ id: "Deep_run1primary", identityUnknown: true })
  })

  it("readZip gives every run.json entry, by its path in the zip", () => {
    const read = Submissions.readZip(zipSync({ "a/run.json": strToU8("{}"), "run.json": strToU8("{}") }), "Z_run1.zip")
    expect(read.metadata.map((m) => m.path)).toEqual(["Z_run1.zip!a/run.json", "Z_run1.zip!run.json"])
  })
})

describe("a run whose run.json cannot be used has no identity: listed, failed, under its file name, counted for no team", () => {
  const broken = '{ "team": "Many", '
  const root = tree({
    "Many_run1/STS.output.images.txt": "1\n",
    "Many_run2/STS.output.images.txt": "1\n",
    "Many_run3/STS.output.images.txt": "1\n",
    // a fourth run of Many by its name, whose run.json is broken: it must not put Many over the limit of 3
    "Many_run4primary/STS.output.images.txt": "1\n",
    "Many_run4primary/run.json": broken,
    // named like run 1 of Solo: it must not take Solo/run1's id from Solo's real run 1
    "Solo_run1.zip": zipSync({ "STS.output.images.txt": strToU8("1\n"), "run.json": strToU8(broken), "x/run.json": strToU8("{}") }),
    "solo-entry/STS.output.images.txt": "1\n",
    "solo-entry/run.json": JSON.stringify({ team: "Solo", run: 1, primary: true })
  })
  const found = run(Submissions.discover(root, sts2014))

  it("its meta: id and team are its file name, no run number, not primary, identityUnknown", async () => {
    const { runs } = await found
    const many4 = runs.find((r) => r.path === path.join(root, "Many_run4primary"))!
    expect(many4.meta).toEqual({
      id: "Many_run4primary",
      team: "Many_run4primary",
      run: undefined,
      primary: false,
      late: false,
      corrected: false,
      postDeadline: false,
      identityUnknown: true
    })
    expect(codes(many4.issues)).toEqual(["bad-run-metadata"])
    expect(many4.files).toEqual([])
    const solo = runs.find((r) => r.path === path.join(root, "Solo_run1.zip"))!
    expect(solo.meta).toMatchObject({ id: "Solo_run1.zip", team: "Solo_run1.zip", identityUnknown: true })
  })

  it("counts toward no team's run limit, and takes no valid run's id", async () => {
    const { runs, issues } = await found
    expect(issues).toEqual([])
    expect(runs.find((r) => r.path === path.join(root, "solo-entry"))!.meta.id).toBe("Solo/run1")
    expect(runs.filter((r) => r.meta.identityUnknown !== true).map((r) => r.meta.id)).toEqual(["Many/run1", "Many/run2", "Many/run3", "Solo/run1"])
  })

  it("loadRun gives it the same meta", async () => {
    const one = await run(Submissions.loadRun(path.join(root, "Many_run4primary"), sts2014))
    expect(one.meta).toMatchObject({ id: "Many_run4primary", team: "Many_run4primary", identityUnknown: true })
  })

  it("assignIds: a run of unknown identity never takes an id a run of known identity would have", () => {
    expect(
      Submissions.assignIds([
        { team: "A", run: undefined, name: "A", identityUnknown: true },
        { team: "A", run: undefined, name: "A.txt" }
      ])
    ).toEqual(["A~2", "A"])
  })
})

describe("run.json field lengths", () => {
  it("a 1 MB team name or a long description is a clear error naming the field and the length, not a 1 MB message", () => {
    const json = (o: object) => new TextEncoder().encode(JSON.stringify(o))
    const big = Submissions.parseRunJson(json({ team: "T".repeat(1_000_000) }), "Big_run1/run.json")
    expect(big.value).toBeUndefined()
    expect(big.issues).toHaveLength(1)
    const issue = big.issues[0]
    expect(issue.code).toBe("bad-run-metadata")
    expect(issue.field).toBe("team")
    expect(issue.message).toContain(`at most ${Submissions.MAX_TEAM_LENGTH}`)
    expect(issue.message).toContain("(1000000 characters)")
    expect(JSON.stringify(issue).length).toBeLessThan(1000)
    const description = Submissions.parseRunJson(json({ description: "d".repeat(Submissions.MAX_DESCRIPTION_LENGTH + 1) }), "x/run.json")
    expect(description.issues[0].field).toBe("description")
    // at the caps: valid
    const ok = Submissions.parseRunJson(json({ team: "T".repeat(Submissions.MAX_TEAM_LENGTH), description: "d".repeat(Submissions.MAX_DESCRIPTION_LENGTH) }), "x/run.json")
    expect(ok.issues).toEqual([])
  })
})

/** The zip with every entry named `from` (local and central headers) renamed `to` (same length). */
function renameEntry(zip: Uint8Array, from: string, to: string): Uint8Array {
  if (from.length !== to.length) throw new Error("same length only")
  const out = zip.slice()
  const a = strToU8(from)
  const b = strToU8(to)
  for (let i = 0; i + a.length <= out.length; i++) {
    if (a.every((c, k) => out[i + k] === c)) out.set(b, i)
  }
  return out
}

describe("a folder listed once: run.json beside runs found in the listing, not by a look per name", () => {
  const run = (folder: string, name: string, options: Submissions.DiscoverOptions) =>
    Effect.runPromise(Submissions.loadEntry(folder, name, Registry.get("sick2014")!, options).pipe(Effect.provide(NodeServices.layer)))
  const sickRun = "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3.5\n"

  it("listFolder gives the runs and the run.json files beside them; runJsonBeside the ones of one run, in the order they are looked for", async () => {
    const root = tree({ "A_run1.txt": sickRun, "A_run1.run.json": "{}", "A_run1.txt.run.json": "{}", "B_run2.txt": sickRun, ".hidden": "x" })
    const listing = await Effect.runPromise(Submissions.listFolder(root).pipe(Effect.provide(NodeServices.layer)))
    expect(listing.names).toEqual(["A_run1.txt", "B_run2.txt"])
    expect([...listing.runJson].sort()).toEqual(["A_run1.run.json", "A_run1.txt.run.json"])
    expect(Submissions.runJsonBeside(listing, "A_run1.txt")).toEqual(["A_run1.run.json", "A_run1.txt.run.json"])
    expect(Submissions.runJsonBeside(listing, "B_run2.txt")).toEqual([])
  })

  it("a run whose listing holds no run.json is read without one, even if one appeared since (no look at the disk per absent name)", async () => {
    const root = tree({ "A_run1.txt": sickRun, "A_run1.run.json": JSON.stringify({ team: "Other", run: 5 }) })
    const listed = await run(root, "A_run1.txt", { runJsonBeside: [] })
    expect(listed._tag === "Run" && listed.run.meta).toMatchObject({ team: "A", run: 1 })
    // the listing names it: read, as without a listing
    const named = await run(root, "A_run1.txt", { runJsonBeside: ["A_run1.run.json"] })
    expect(named._tag === "Run" && named.run.meta).toMatchObject({ team: "Other", run: 5 })
    const unlisted = await run(root, "A_run1.txt", {})
    expect(unlisted._tag === "Run" && unlisted.run.meta).toMatchObject({ team: "Other", run: 5 })
  })

  it("discover reads a run.json beside a run from its one listing", async () => {
    const root = tree({ "A_run1.txt": sickRun, "A_run1.txt.run.json": JSON.stringify({ team: "Named", run: 3 }), "B_run2.txt": sickRun })
    const found = await Effect.runPromise(Submissions.discover(root, Registry.get("sick2014")!).pipe(Effect.provide(NodeServices.layer)))
    expect(found.runs.map((r) => r.meta.id)).toEqual(["B/run2", "Named/run3"])
  })
})

describe("a run entry read with few file-system calls", () => {
  /**
   * The paths `realpath` was asked for while `f` ran: Node's promise API spied through its CommonJS
   * object, whose properties `syncBuiltinESMExports` copies onto the ES module formats imports.
   */
  const realpathsDuring = async <A>(f: () => Promise<A>): Promise<{ readonly value: A; readonly paths: ReadonlyArray<string> }> => {
    const require = createRequire(import.meta.url)
    const fsp = require("node:fs/promises") as { realpath: (p: string) => Promise<string> }
    const original = fsp.realpath
    const paths: Array<string> = []
    fsp.realpath = (p: string) => {
      paths.push(String(p))
      return original(p)
    }
    syncBuiltinESMExports()
    try {
      return { value: await f(), paths }
    } finally {
      fsp.realpath = original
      syncBuiltinESMExports()
    }
  }
  const sickRun = "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3.5\n"

  it("a run file that is no link is not resolved (one lstat says so), and a link to another run is still refused", async () => {
    const root = tree({ "A_run1.txt": sickRun })
    fs.symlinkSync("A_run1.txt", path.join(root, "B_run1.txt"))
    const within = await run(Submissions.folderWithin(root))
    const plain = await realpathsDuring(() => run(Submissions.loadEntry(root, "A_run1.txt", sick2014, { runJsonBeside: [] }, within)))
    expect(plain.value._tag === "Run" && plain.value.run.files.map((f) => f.name)).toEqual(["A_run1.txt"])
    // before: the entry's real path was asked for, a readlink per part of the path
    // (only this folder's: other tests of the file may read meanwhile)
    expect(plain.paths.filter((p) => p.startsWith(root))).toEqual([])
    const linked = await realpathsDuring(() => run(Submissions.loadEntry(root, "B_run1.txt", sick2014, { runJsonBeside: [] }, within)))
    expect(linked.value._tag === "Run" && codes(linked.value.run.issues)).toEqual(["outside-folder"])
    expect(linked.paths).toContain(path.join(root, "B_run1.txt"))
  })

  /** The paths `lstat` was asked for, and the reads of files opened, while `f` ran (as `realpathsDuring`). */
  const lstatsAndReadsDuring = async <A>(f: () => Promise<A>): Promise<{ readonly value: A; readonly lstats: ReadonlyArray<string>; readonly reads: Map<string, number> }> => {
    const require = createRequire(import.meta.url)
    type Handle = { read: (...args: Array<unknown>) => Promise<unknown> }
    const fsp = require("node:fs/promises") as { lstat: (p: string) => Promise<unknown>; open: (p: string, flags: number) => Promise<Handle> }
    const { lstat, open } = fsp
    const lstats: Array<string> = []
    const reads = new Map<string, number>()
    fsp.lstat = (p: string) => {
      lstats.push(String(p))
      return lstat(p)
    }
    fsp.open = async (p: string, flags: number) => {
      const handle = await open(p, flags)
      const read = handle.read.bind(handle)
      handle.read = (...args) => {
        reads.set(String(p), (reads.get(String(p)) ?? 0) + 1)
        return read(...args)
      }
      return handle
    }
    syncBuiltinESMExports()
    try {
      return { value: await f(), lstats, reads }
    } finally {
      Object.assign(fsp, { lstat, open })
      syncBuiltinESMExports()
    }
  }

  it("a run file that is no link is looked at once and read in one read (issue 36: a scorer's calls per run)", async () => {
    const root = tree({ "A_run1.txt": sickRun })
    const within = await run(Submissions.folderWithin(root))
    const file = path.join(root, "A_run1.txt")
    const { value, lstats, reads } = await lstatsAndReadsDuring(() => run(Submissions.loadEntry(root, "A_run1.txt", sick2014, { runJsonBeside: [] }, within)))
    expect(value._tag === "Run" && new TextDecoder().decode(value.run.files[0].bytes)).toBe(sickRun)
    // before: an lstat to tell runs apart and the checked read's own, and a second read to hear the end
    expect(lstats.filter((p) => p === file)).toEqual([file])
    expect(reads.get(file)).toBe(1)
  })

  it("a file read on its own (no entry looked at before) is still looked at before it is opened", async () => {
    const root = tree({ "big.txt": "x".repeat(70_000) })
    const file = path.join(root, "big.txt")
    const { value, lstats, reads } = await lstatsAndReadsDuring(() => run(Files.readFile(file, { within: root })))
    expect(value.length).toBe(70_000)
    expect(lstats.filter((p) => p.startsWith(root))).toEqual([file])
    expect(reads.get(file)).toBe(1)
  })

  it("`lookedAt`: no look before the open, and what was opened is still checked (a FIFO refused on its descriptor)", async () => {
    const root = tree({ "a.txt": "1\n" })
    const file = path.join(root, "a.txt")
    const plain = await lstatsAndReadsDuring(() => run(Files.readFile(file, { within: root, lookedAt: true })))
    expect([new TextDecoder().decode(plain.value), plain.lstats.filter((p) => p.startsWith(root))]).toEqual(["1\n", []])
    const fifo = path.join(root, "pipe")
    try {
      execFileSync("mkfifo", [fifo])
    } catch {
      return // no mkfifo on this system: the FIFO case is not checked here
    }
    const exit = await Effect.runPromiseExit(Files.readFile(fifo, { within: root, lookedAt: true }))
    expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toContain("a FIFO (named pipe), not a regular file")
  })
})
