/**
 * Everything a run puts into the watcher's outputs is bounded whatever the run holds (issue 31):
 * a run zip of real files and many empty entries with very long names gives a board, a public
 * board, a status file and a cache entry of bounded size, its names cut with a marker and its
 * issues capped with a count of the rest; entry names longer than any path are refused before
 * anything is unpacked. The hostile zips are built here, small where size is not the point.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Issue, Registry } from "@stseval/formats"
import { Effect, Layer, References } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import * as Watcher from "../src/Watcher.js"
import * as Fake from "./fixtures/fake.js"
import * as harness from "./fixtures/harness.js"
import { cacheEntries, sts2017Session, tempDir } from "./fixtures/harness.js"

const sts2017 = Registry.get("sts2017")!
const PAIRS = 8

let state = 7
const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32

const { goldDir, folder } = sts2017Session("bounds", PAIRS, rand, (g) => ({
  Good_run1primary: g.map((v) => `${Math.round((v + rand() - 0.5) * 1000) / 1000}\n`).join("")
}))
// the real run's seven files, as a zip's entries
const realFiles = sts2017.datasets.map((d) => ({ name: d.run, text: fs.readFileSync(path.join(folder, "Good_run1primary", d.run), "utf8") }))

const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: sts2017, gold: goldDir }), NodeServices.layer)
const once = (subs: string, out: string) =>
  Effect.runPromise(Watcher.watch({ folder: subs, out, once: true, settle: 0 }).pipe(Effect.provide(layer), Effect.provideService(References.MinimumLogLevel, "None")))

const size = (file: string) => fs.statSync(file).size
const issuesOf = (run: { readonly errors: ReadonlyArray<Issue.Issue>; readonly warnings: ReadonlyArray<Issue.Issue> }) => [...run.errors, ...run.warnings]

/** A copy of the session's submissions folder with `Evil_run1.zip` added. */
const withZip = (label: string, zip: Uint8Array) => {
  const subs = tempDir(label)
  fs.cpSync(folder, subs, { recursive: true })
  fs.writeFileSync(path.join(subs, "Evil_run1.zip"), zip)
  return subs
}

describe("a run's share of every output is bounded", () => {
  it("entries with names longer than any path: the zip is refused without unpacking, and the outputs stay small", async () => {
    // 20 empty entries with 60,000-character names (1.2 MB of names), beside the seven real files
    const zip = Fake.makeZip([...realFiles, ...Array.from({ length: 20 }, (_, i) => ({ name: `${"n".repeat(60_000)}${i}.txt`, text: "" }))])
    const subs = withZip("bounds-long", zip)
    const out = tempDir("bounds-long-out")
    await once(subs, out)
    for (const name of ["leaderboard.json", "leaderboard.public.json", "status.json"]) expect(size(path.join(out, name))).toBeLessThan(40_000)
    for (const name of fs.readdirSync(path.join(out, "cache"))) expect(size(path.join(out, "cache", name))).toBeLessThan(40_000)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as Watcher.Status & { runs: ReadonlyArray<{ entry: string; status: string; errors: ReadonlyArray<Issue.Issue>; warnings: ReadonlyArray<Issue.Issue> }> }
    const evil = board.runs.find((r) => r.entry === "Evil_run1.zip")!
    expect(evil.status).toBe("failed")
    expect(evil.errors.map((i) => i.code)).toEqual(["too-large"])
    expect(evil.errors[0].message).toMatch(/entry name of 600\d\d bytes/)
    // the good run is still ranked
    expect(board.runs.find((r) => r.entry === "Good_run1primary")!.status).toBe("scored")
  })

  it("many entries with long names (within the caps): names cut with a marker, the issues capped with a count of the rest", async () => {
    const ENTRIES = 300
    const zip = Fake.makeZip([...realFiles, ...Array.from({ length: ENTRIES }, (_, i) => ({ name: `${"n".repeat(3000)}${i}.txt`, text: "" }))])
    const subs = withZip("bounds-many", zip)
    const out = tempDir("bounds-many-out")
    await once(subs, out)
    // before: each of the 300 warnings held the 3,000-character name twice (file and message), 2 MB per board file
    for (const name of ["leaderboard.json", "leaderboard.public.json", "status.json"]) expect(size(path.join(out, name))).toBeLessThan(250_000)
    for (const name of fs.readdirSync(path.join(out, "cache"))) expect(size(path.join(out, "cache", name))).toBeLessThan(250_000)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as { runs: ReadonlyArray<{ entry: string; status: string; errors: ReadonlyArray<Issue.Issue>; warnings: ReadonlyArray<Issue.Issue> }> }
    const evil = board.runs.find((r) => r.entry === "Evil_run1.zip")!
    // scored: the unknown files are warnings
    expect(evil.status).toBe("scored")
    const issues = issuesOf(evil)
    expect(issues.length).toBeLessThanOrEqual(Issue.MAX_RUN_ISSUES + 3)
    // every finding still counted: the listed ones and the closing issue's count
    expect(Issue.count(issues, (i) => i.code === "unknown-file")).toBe(ENTRIES)
    const closing = issues.find((i) => (i.count ?? 1) > 1)!
    expect(closing.message).toMatch(/more warnings? .*not listed/)
    for (const i of issues) {
      expect(i.file.length).toBeLessThanOrEqual(Issue.MAX_FILE_LENGTH)
      expect(i.message.length).toBeLessThanOrEqual(Issue.MAX_MESSAGE_LENGTH)
    }
    // cut with a marker that says how much was left out, keeping the name's end
    const cut = issues.find((i) => i.file.includes("characters cut"))!
    expect(cut.file).toMatch(/^Evil_run1\.zip!n+…\(\d+ characters cut\)…n+\d+\.txt$/)
    // the status file lists the run's issues bounded too
    const status = JSON.parse(fs.readFileSync(path.join(out, "status.json"), "utf8")) as Watcher.Status
    expect(status.runs["Evil_run1.zip"].errors.length).toBeLessThanOrEqual(Issue.MAX_RUN_ISSUES + 3)
  })
})

describe("a restart never dies on what an earlier run left in the state or the cache", () => {
  /** The good run alone, scored once into the fresh folder `label`: the folders and the file of its one cache entry (its batch's). */
  const scoredOnce = async (label: string) => {
    const subs = tempDir("bounds-restart")
    fs.cpSync(folder, subs, { recursive: true })
    const out = tempDir(label)
    await once(subs, out)
    const [{ file }] = cacheEntries(out)
    return { subs, out, file }
  }
  /** A restart on what `scoredOnce` left after a test spoiled it: the run is scored again, not read from the cache. */
  const scoredAgain = async (subs: string, out: string) =>
    expect(await once(subs, out)).toMatchObject({ scoredThisSession: 1, cacheHits: 0 })
  const logOf = (out: string) => fs.readFileSync(path.join(out, "watch.log"), "utf8")

  it("a cache entry outside today's bounds (names of 60,000 characters) is dropped with a warning and the run scored again", async () => {
    const { subs, out, file } = await scoredOnce("bounds-restart-out")
    const entry = JSON.parse(fs.readFileSync(file, "utf8")) as { outcome: { warnings: Array<unknown> } }
    // as an earlier version wrote it: every warning holding a whole entry name
    entry.outcome.warnings = Array.from({ length: 20 }, (_, i) => ({ severity: "warning", code: "unknown-file", file: `x.zip!${"n".repeat(60_000)}${i}`, message: "matches no dataset" }))
    fs.writeFileSync(file, JSON.stringify(entry))
    await scoredAgain(subs, out)
    expect(logOf(out)).toMatch(/Good_run1primary: its cached score cannot be used .*; scoring it again/)
    // the reason quotes no 60,000-character value
    for (const line of logOf(out).split("\n")) expect(line.length).toBeLessThan(1000)
    expect(size(path.join(out, "leaderboard.json"))).toBeLessThan(40_000)
  })

  it("a cache entry larger than Cache.MAX_ENTRY_BYTES is not read: dropped with a warning, the run scored again", async () => {
    const { subs, out, file } = await scoredOnce("bounds-restart-big-out")
    // valid JSON, padded past the cap (within its line: one entry a line)
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").trimEnd() + " ".repeat(5 * 1024 * 1024) + "\n")
    await scoredAgain(subs, out)
    expect(logOf(out)).toMatch(/Good_run1primary: its cached score cannot be used \(.*more than the limit/)
  })

  it("a FIFO in place of a cache entry or of state.json hangs nothing: dropped with a warning, the run scored again", { timeout: 20_000 }, async () => {
    const { subs, out, file: entry } = await scoredOnce("bounds-restart-fifo-out")
    for (const file of [entry, path.join(out, "state.json")]) {
      fs.rmSync(file)
      expect(spawnSync("mkfifo", [file]).status).toBe(0)
    }
    await scoredAgain(subs, out)
    expect(logOf(out)).toMatch(/state\.json.*not a regular file.*starting afresh/)
  })
})

describe("an output folder that is the submissions folder", () => {
  const fakeRuns = (dir: string) => fs.writeFileSync(path.join(dir, "Team1_run1.txt"), Fake.runText(Fake.GOLD))

  it("is refused before anything is written, given as the same path or through a link", { timeout: 20_000 }, async () => {
    const subs = tempDir("bounds-same")
    fakeRuns(subs)
    const link = `${subs}-link`
    fs.symlinkSync(subs, link)
    for (const out of [subs, `${subs}/`, link]) {
      const error = await harness.once({ folder: subs, out }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Watcher.WatchError)
      expect((error as Watcher.WatchError).message).toMatch(/^the output folder .* is the submissions folder.*: its outputs would be scored as runs; choose another output folder/)
    }
    expect(fs.readdirSync(subs)).toEqual(["Team1_run1.txt"])
  })

  it("an output folder inside the submissions folder (as documented) is still no run, also when named through a link", async () => {
    const subs = tempDir("bounds-inside")
    fakeRuns(subs)
    fs.mkdirSync(path.join(subs, "board"))
    const link = `${subs}-board-link`
    fs.symlinkSync(path.join(subs, "board"), link)
    const summary = await harness.once({ folder: subs, out: link })
    expect(summary.runs).toBe(1)
  })
})

describe("publishing does not rewrite what did not change", () => {
  it("a restart over an unchanged folder (a cron job's watch --once) rewrites none of the boards, their pages nor the state", async () => {
    const subs = tempDir("bounds-unchanged")
    fs.cpSync(folder, subs, { recursive: true })
    const out = tempDir("bounds-unchanged-out")
    await once(subs, out)
    const names = ["leaderboard.json", "leaderboard.md", "leaderboard.html", "leaderboard.version.js", "leaderboard.public.json", "leaderboard.public.md", "leaderboard.public.html", "state.json"]
    // a file written again is a new file (written aside, then renamed over the old one), with a new time
    const inodes = () => names.map((n) => {
      const st = fs.statSync(path.join(out, n), { bigint: true })
      return `${n} ${st.ino} ${st.mtimeNs}`
    })
    const before = inodes()
    const restart = await once(subs, out)
    expect(restart).toMatchObject({ scoredThisSession: 0, cacheHits: 1 })
    expect(inodes()).toEqual(before)
    // a changed folder is published: a second run appears
    fs.cpSync(path.join(folder, "Good_run1primary"), path.join(subs, "Other_run1primary"), { recursive: true })
    await once(subs, out)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as { runs: ReadonlyArray<unknown> }
    expect(board.runs).toHaveLength(2)
    expect(JSON.parse(fs.readFileSync(path.join(out, "leaderboard.public.json"), "utf8"))).toMatchObject({ counts: { runs: 2 } })
  })
})
