/**
 * What an organiser of a new JSON Lines task and its participants hit (issue 32): run names with
 * the task's own extensions (`Team_run1primary.jsonl`, `.json`) keep their team, run number and
 * primary mark in every command and in the watcher; a `run.json` beside `Team_run2.jsonl` may be
 * `Team_run2.run.json`; the edition's run limit holds with `--all-runs` and in the watcher.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backdate, runCli } from "./support/cli.js"

let work: string
let edition: string
let gold: string
const LANGS = ["en", "de"]
const PAIRS = 20
/** The gold: PAIRS records per language, each naming its language. */
const goldRecords = LANGS.flatMap((lang) => Array.from({ length: PAIRS }, (_, i) => ({ id: `${lang}${i}`, lang, score: ((i * 7) % 11) / 10 })))
/** A run's records: the gold's scores, perturbed by `k`. */
const runRecords = (k: number) =>
  goldRecords.map((r, i) => ({ id: r.id, lang: r.lang, pred: Math.min(1, Math.max(0, r.score + (((i * k) % 5) - 2) / 20)) }))
const jsonl = (records: ReadonlyArray<object>) => records.map((r) => `${JSON.stringify(r)}\n`).join("")

/** A fresh submissions folder holding `files` (name to content). */
const folderOf = (name: string, files: Record<string, string>) => {
  const folder = path.join(work, name)
  fs.mkdirSync(folder)
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, file), text)
  backdate(folder)
  return folder
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-newuser-jsonl-"))
  edition = path.join(work, "edition.yaml")
  gold = path.join(work, "gold.jsonl")
  fs.writeFileSync(
    edition,
    [
      "id: jtask",
      "title: A JSON Lines task",
      "scale: { min: 0, max: 1 }",
      "submission: file",
      "format: { type: jsonl, id: id, score: score, dataset: lang, run: { score: pred } }",
      "datasets:",
      "  - { name: en, gold: gold.jsonl, run: predictions.jsonl }",
      "  - { name: de, gold: gold.jsonl, run: predictions.jsonl }",
      "runLimit: 3",
      "ranking:",
      "  - { subtask: main, metric: kendall, aggregate: mean }",
      "missingDataset: zero",
      "published: { style: r3 }",
      ""
    ].join("\n")
  )
  fs.writeFileSync(gold, jsonl(goldRecords))
})

afterAll(() => {
  if (work !== undefined) fs.rmSync(work, { recursive: true, force: true })
})

interface Entry {
  readonly rank: number | null
  readonly id: string
  readonly team: string
  readonly run?: number
  readonly primary: boolean
  readonly postDeadline?: boolean
  readonly flags: ReadonlyArray<string>
}
const entriesOf = (stdout: string): ReadonlyArray<Entry> =>
  (JSON.parse(stdout) as { rankings: { rankings: ReadonlyArray<{ entries: ReadonlyArray<Entry> }> } }).rankings.rankings[0].entries

describe("run names of a JSON Lines task (Team_run1primary.jsonl, .json)", () => {
  const task = () => ["--task", edition, "--gold", gold]
  let folder: string
  beforeAll(() => {
    folder = folderOf("names", {
      "Alpha_run1primary.jsonl": jsonl(runRecords(1)),
      "Beta_run1primary.json": jsonl(runRecords(2)),
      "Beta_run2.jsonl": jsonl(runRecords(3))
    })
  })

  it("rank: both primary runs ranked under their team and number, none left out as non-primary", async () => {
    const rank = await runCli(["rank", ...task(), folder, "--json"])
    expect(rank.code, rank.stderr).toBe(0)
    const entries = entriesOf(rank.stdout)
    expect(entries.map((e) => e.id).sort()).toEqual(["Alpha/run1", "Beta/run1"])
    expect(entries.every((e) => e.primary && e.rank !== null)).toBe(true)
    const text = await runCli(["rank", ...task(), folder])
    expect(text.stdout).not.toContain("does not follow Team_runN")
    expect(text.stdout).toContain("1 non-primary run(s) left out")
  })

  it("significance has the two primary runs to test (exit 0)", async () => {
    const sig = await runCli(["significance", ...task(), folder, "--json"])
    expect(sig.code, sig.stderr).toBe(0)
    expect(sig.stdout).toContain("Alpha/run1")
    expect(sig.stdout).toContain("Beta/run1")
  })

  it("Team_run2.run.json beside Team_run2.jsonl is read, and Team_run2.jsonl.run.json still is", async () => {
    const beside = folderOf("beside", {
      "Gamma_run1primary.jsonl": jsonl(runRecords(1)),
      "Gamma_run2.jsonl": jsonl(runRecords(2)),
      "Gamma_run2.run.json": JSON.stringify({ primary: true, postDeadline: true }),
      "Delta_run1.jsonl": jsonl(runRecords(3)),
      "Delta_run1.jsonl.run.json": JSON.stringify({ primary: true, postDeadline: true })
    })
    const rank = await runCli(["rank", ...task(), beside, "--all-runs", "--json"])
    expect(rank.code, rank.stderr).toBe(0)
    const byId = new Map(entriesOf(rank.stdout).map((e) => [e.id, e]))
    expect(byId.get("Gamma/run2")).toMatchObject({ primary: true, postDeadline: true, rank: null })
    expect(byId.get("Delta/run1")).toMatchObject({ primary: true, postDeadline: true, rank: null })
    expect(byId.get("Gamma/run1")?.rank).toBe(1)
  })
})

describe("the edition's run limit (runLimit: 3) with seven runs of one team", () => {
  let folder: string
  beforeAll(() => {
    const files: Record<string, string> = {}
    for (let n = 1; n <= 7; n++) files[`Team_run${n}${n === 1 ? "primary" : ""}.jsonl`] = jsonl(runRecords(n))
    folder = folderOf("limit", files)
  })
  const overLimit = (entries: ReadonlyArray<Entry>) =>
    entries
      .filter((e) => e.flags.includes("over-limit"))
      .map((e) => e.id)
      .sort()

  it("rank --all-runs: runs 4-7 flagged over-limit and not ranked", async () => {
    const rank = await runCli(["rank", "--task", edition, "--gold", gold, folder, "--all-runs", "--json"])
    expect(rank.code, rank.stderr).toBe(0)
    const entries = entriesOf(rank.stdout)
    expect(overLimit(entries)).toEqual(["Team/run4", "Team/run5", "Team/run6", "Team/run7"])
    expect(entries.filter((e) => e.rank !== null).map((e) => e.id).sort()).toEqual(["Team/run1", "Team/run2", "Team/run3"])
  })

  it("watch --once: the board flags runs 4-7 over-limit and ranks three", async () => {
    const out = path.join(work, "board")
    const watch = await runCli(["watch", "--task", edition, "--gold", gold, "--once", "--out", out, folder])
    expect(watch.code, watch.stderr).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as { rankings: ReadonlyArray<{ entries: ReadonlyArray<Entry> }> }
    const entries = board.rankings[0].entries
    expect(overLimit(entries)).toEqual(["Team/run4", "Team/run5", "Team/run6", "Team/run7"])
    expect(entries.filter((e) => e.rank !== null && e.rank !== undefined)).toHaveLength(3)
  })
})

describe("a JSON Lines prediction written as a string", () => {
  it('"pred": "0.62" is an error naming the file, the line and the field: expected a number, found a string (exit 1)', async () => {
    const records = runRecords(1).map((r, i) => (i === 2 ? { ...r, pred: String(r.pred) } : r))
    const folder = folderOf("string", { "Str_run1primary.jsonl": jsonl(records) })
    const file = path.join(folder, "Str_run1primary.jsonl")
    const text = await runCli(["validate", "--task", edition, "--gold", gold, file])
    expect(text.code).toBe(1)
    expect(text.stdout).toContain(`${file}:3: error: the pred on line 3 is a string ("${records[2].pred}"), not a number`)
    const json = await runCli(["validate", "--task", edition, "--gold", gold, file, "--json"])
    const issues = (JSON.parse(json.stdout) as { runs: ReadonlyArray<{ errors: ReadonlyArray<{ code: string; line?: number; field?: string; expected?: string; found?: string }> }> }).runs[0].errors
    expect(issues).toContainEqual(expect.objectContaining({ code: "not-a-number", line: 3, field: "pred", expected: "a number", found: "a string" }))
  })
})

describe("a run lacking a record of one language under missingDataset: zero", () => {
  let folder: string
  const task = () => ["--task", edition, "--gold", gold]
  beforeAll(() => {
    folder = folderOf("zeroed", {
      "Good_run1primary.jsonl": jsonl(runRecords(1)),
      // de19 left out: de is not scored and counts as 0 in the official mean
      "Lacking_run1primary.jsonl": jsonl(runRecords(2).filter((r) => r.id !== "de19"))
    })
  })

  it("rank: ranked (exit 0), its figure marked with a superscript 0 and said under the table, with the reason; JSON flags it zeroed", async () => {
    const text = await runCli(["rank", ...task(), folder])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toMatch(/Lacking\/run1 \u2070 +\d\.\d{3}/)
    expect(text.stdout).not.toMatch(/Good\/run1 \u2070/)
    expect(text.stdout).toContain("\u2070 the official figure counts a dataset the run lacks, or that failed on an error, as 0")
    expect(text.stdout).toContain("Lacking/run1: de counted as 0 (1 pair of dataset de (of 20) have no line in the run (the first: de19))")
    const json = await runCli(["rank", ...task(), folder, "--json"])
    const byId = new Map(entriesOf(json.stdout).map((e) => [e.id, e]))
    expect(byId.get("Lacking/run1")?.flags).toContain("zeroed")
    expect(byId.get("Lacking/run1")?.rank).not.toBeNull()
    expect(byId.get("Good/run1")?.flags).not.toContain("zeroed")
  })

  it("score: the official figure is marked and names the dataset counted as 0", async () => {
    const text = await runCli(["score", ...task(), path.join(folder, "Lacking_run1primary.jsonl")])
    expect(text.stdout).toMatch(/official \d\.\d{3} \u2070 \(de counted as 0\)/)
  })

  it("report (Markdown, JSON) and the leaderboard mark the run and give the footnote", async () => {
    const md = await runCli(["report", ...task(), folder, "--format", "md"])
    expect(md.code, md.stderr).toBe(0)
    expect(md.stdout).toMatch(/\| Lacking\/run1\u2070 /)
    expect(md.stdout).toContain("\u2070 the official figure counts a dataset the run lacks")
    const json = await runCli(["report", ...task(), folder, "--format", "json"])
    expect(json.stdout).toContain('"zeroed"')
    const out = path.join(work, "zeroed-board")
    const watch = await runCli(["watch", ...task(), "--once", "--out", out, folder])
    expect(watch.code, watch.stderr).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as { runs: ReadonlyArray<{ id: string; flags: ReadonlyArray<string> }> }
    expect(board.runs.find((r) => r.id === "Lacking/run1")?.flags).toContain("zeroed")
    const page = fs.readdirSync(out).find((f) => f.endsWith(".html"))!
    expect(fs.readFileSync(path.join(out, page), "utf8")).toContain("the official figure counts a dataset the run lacks")
  })
})

describe("rank of an edition ranked per dataset, a dataset no run entered", () => {
  it("is no table of 'not ranked' rows: one line names it", async () => {
    const perDataset = path.join(work, "per-dataset.yaml")
    fs.writeFileSync(perDataset, fs.readFileSync(edition, "utf8").replace("id: jtask", "id: jtaskpd").replace("aggregate: mean }", "aggregate: mean, ranked: per-dataset }"))
    const folder = folderOf("per-dataset", { "Team_run1primary.jsonl": jsonl(runRecords(1).filter((r) => r.lang === "en")) })
    const r = await runCli(["rank", "--task", perDataset, "--gold", gold, folder])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain("en — Kendall's tau-b, primary runs")
    expect(r.stdout).not.toContain("de — Kendall's tau-b")
    expect(r.stdout).not.toContain("not ranked: no de figure")
    expect(r.stdout).toContain("No run entered de: it has no table.")
  })
})
