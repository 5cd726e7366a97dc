/**
 * Issue 31 on the command line: what a hostile run puts into `rank --json` is bounded (a zip of
 * many entries with long names: names cut, issues capped with a count of the rest), and `watch`
 * refuses an output folder that is the submissions folder (it would score its own outputs). The
 * STS 2017 gold and runs are written here (4 pairs a track).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { strToU8, zipSync } from "fflate"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { backdate, runCli } from "./support/cli.js"

const tmp = scratchDir("cli-bounds")

const TRACKS = ["track1.ar-ar", "track2.ar-en", "track3.es-es", "track4a.es-en", "track4b.es-en", "track5.en-en", "track6.tr-en"]
const gold = path.join(tmp, "gold")
fs.mkdirSync(gold)
for (const t of TRACKS) fs.writeFileSync(path.join(gold, `STS.gs.${t}.txt`), "1\n2\n3\n4\n")
const subs = path.join(tmp, "subs")
fs.mkdirSync(path.join(subs, "Good_run1"), { recursive: true })
for (const t of TRACKS) fs.writeFileSync(path.join(subs, "Good_run1", `STS.output.${t}.txt`), "1.1\n2.2\n2.9\n4.2\n")

const ENTRIES = 300
const files: Record<string, Uint8Array> = {}
for (const t of TRACKS) files[`STS.output.${t}.txt`] = strToU8("1.2\n2.1\n3.3\n3.9\n")
for (let i = 0; i < ENTRIES; i++) files[`${"n".repeat(3000)}${i}.txt`] = new Uint8Array()
fs.writeFileSync(path.join(subs, "Evil_run1.zip"), zipSync(files, { level: 0 }))
backdate(subs)

interface RunJson {
  readonly run: { readonly id: string }
  readonly status: string
  readonly errors: ReadonlyArray<{ readonly file: string; readonly message: string; readonly count?: number; readonly code: string }>
  readonly warnings: ReadonlyArray<{ readonly file: string; readonly message: string; readonly count?: number; readonly code: string }>
}

describe("rank --json on a zip of many long-named entries", () => {
  it("is bounded: names cut with a marker, at most 100 issues and a count of the rest, the good run scored", async () => {
    const r = await runCli(["rank", "--task", "sts2017", "--gold", gold, "--all-runs", subs, "--json"])
    expect(r.code).toBe(0)
    // before: each of the 300 warnings held the 3,000-character name twice, 2 MB
    expect(r.stdout.length).toBeLessThan(150_000)
    const out = JSON.parse(r.stdout) as { runs: ReadonlyArray<RunJson> }
    const evil = out.runs.find((x) => x.run.id === "Evil/run1")!
    const issues = [...evil.errors, ...evil.warnings]
    expect(issues.length).toBeLessThanOrEqual(103)
    const unknown = issues.filter((i) => i.code === "unknown-file")
    expect(unknown.reduce((n, i) => n + (i.count ?? 1), 0)).toBe(ENTRIES)
    expect(unknown.some((i) => /^\d+ more warnings \(unknown-file\) not listed/.test(i.message))).toBe(true)
    for (const i of issues) {
      expect(i.file.length).toBeLessThanOrEqual(200)
      expect(i.message.length).toBeLessThanOrEqual(500)
    }
    expect(issues.some((i) => /characters cut/.test(i.file))).toBe(true)
    expect(out.runs.find((x) => x.run.id === "Good/run1")!.status).toBe("scored")
  })
})

describe("watch with --out the submissions folder", () => {
  it("watch --once is refused with a clear error, exit 2, and writes nothing", async () => {
    const folder = path.join(tmp, "same")
    fs.cpSync(path.join(subs, "Good_run1"), path.join(folder, "Good_run1"), { recursive: true })
    backdate(folder)
    const r = await runCli(["watch", "--once", "--task", "sts2017", "--gold", gold, "--out", folder, folder])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/the output folder .*same is the submissions folder: its outputs would be scored as runs; choose another output folder/)
    expect(fs.readdirSync(folder)).toEqual(["Good_run1"])
  })
})
