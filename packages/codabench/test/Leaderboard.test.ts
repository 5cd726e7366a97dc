/**
 * The leaderboard as Codabench orders it (`leaderboardOrder` in support/codabench.ts re-states
 * `LeaderboardPhaseSerializer.get_submissions` on PostgreSQL, NULLs first in a descending order),
 * fed with what the scoring program writes for complete, partial and failed submissions: a
 * submission without the leaderboard's primary figure never sorts above one that has it — it fails
 * instead, and a failed submission is never on the leaderboard.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import * as Yaml from "yaml"
import { Registry } from "@stseval/formats"
import { Bundle, Scores, ScoringProgram } from "../src/index.js"
import { leaderboardOrder } from "./support/codabench.js"
import type { Entry } from "./support/codabench.js"
import { run, semrel, sickExample, sts2017, writeSemRel, writeSickDev, writeSts2017 } from "./support/fixtures.js"
import { prepareApp, stubCli } from "./support/worker.js"
import type { SubmissionFiles } from "./support/worker.js"

let work: string
let cli: string

beforeAll(() => {
  ;({ work, cli } = stubCli())
})

interface Board {
  readonly columns: ReadonlyArray<{ readonly key: string; readonly index: number; readonly sorting?: "desc" | "asc" }>
  readonly primary_index: number
}
const boardOf = (bundle: string): Board => (Yaml.parse(fs.readFileSync(path.join(bundle, "competition.yaml"), "utf8")) as { leaderboards: Array<Board> }).leaderboards[0]

/** Score each submission as the worker would; those that fail are not on the leaderboard (no scores pushed). */
const submit = async (bundle: string, submissions: ReadonlyArray<{ readonly name: string; readonly files: SubmissionFiles }>) => {
  const entries: Array<Entry> = []
  const failed: Array<string> = []
  for (const [k, s] of submissions.entries()) {
    const app = prepareApp(bundle, "reference_data_test", s.files)
    const outcome = await run(ScoringProgram.scoreCodabench(app.input, app.output))
    const scores = path.join(app.output, "scores.json")
    if (outcome.verdict === "rejected") {
      expect(fs.existsSync(scores)).toBe(false)
      failed.push(s.name)
    } else entries.push({ name: s.name, created: k, scores: JSON.parse(fs.readFileSync(scores, "utf8")) as Record<string, number> })
  }
  return { entries, failed }
}

const filesOf = (folder: string): Record<string, Uint8Array> => Object.fromEntries(fs.readdirSync(folder).map((f) => [f, fs.readFileSync(path.join(folder, f))]))

describe("get_leaderboard's order on PostgreSQL", () => {
  it("the model: a submission without the primary figure sorts first when descending (NULLs first), last when ascending", () => {
    const columns = [
      { key: "official", index: 0, sorting: "desc" as const },
      { key: "mse", index: 1, sorting: "asc" as const }
    ]
    const entries: Array<Entry> = [
      { name: "good", created: 1, scores: { official: 0.8, mse: 1 } },
      { name: "partial", created: 2, scores: { mse: 0.5 } },
      { name: "better", created: 3, scores: { official: 0.9, mse: 2 } },
      { name: "tie-later", created: 4, scores: { official: 0.8, mse: 1 } },
      { name: "no-mse", created: 5, scores: { official: 0.85 } }
    ]
    // official descending: NULL first; ties by mse ascending, then by date
    expect(leaderboardOrder(columns, 0, entries)).toEqual(["partial", "better", "no-mse", "good", "tie-later"])
    // mse ascending: NULL last
    expect(leaderboardOrder(columns, 1, entries)).toEqual(["partial", "good", "tie-later", "better", "no-mse"])
  })

  it("STS 2017: a run with only track 5 fails instead of topping the board; the complete runs are ordered by the mean of all tracks", async () => {
    const data = writeSts2017(path.join(work, "sts"), [
      { name: "Strong", seed: 1, noise: 0.2 },
      { name: "Weak", seed: 2, noise: 0.9 },
      { name: "OnlyTrack5", seed: 3, noise: 0.1, missing: sts2017.datasets.filter((d) => d.name !== "track5.en-en").map((d) => d.name) }
    ])
    const bundle = path.join(work, "sts-bundle")
    await run(Bundle.writeBundle({ task: "sts2017", gold: data.gold, out: bundle, cliBundle: cli, liveTest: true }))
    const board = boardOf(bundle)
    const { entries, failed } = await submit(bundle, [
      { name: "OnlyTrack5", files: filesOf(data.runs["OnlyTrack5"]) },
      { name: "Weak", files: filesOf(data.runs["Weak"]) },
      { name: "Strong", files: filesOf(data.runs["Strong"]) }
    ])
    expect(failed).toEqual(["OnlyTrack5"])
    expect(leaderboardOrder(board.columns, board.primary_index, entries)).toEqual(["Strong", "Weak"])
    // What it would have been had the partial run's scores.json reached the board (as before):
    const partial: Entry = { name: "OnlyTrack5", created: -1, scores: { track5_en_en: 99 } }
    expect(leaderboardOrder(board.columns, board.primary_index, [...entries, partial])[0]).toBe("OnlyTrack5")
  })

  it("SICK: an entailment-only run fails on the relatedness board and is ranked on the entailment board; a relatedness-only run (Insight's) the other way round", async () => {
    const text = fs.readFileSync(path.join(sickExample.runs, "MeaningFactory_run1primary.txt"), "utf8")
    const [head, ...rows] = text.split("\n")
    const r = head.split("\t").indexOf("relatedness_score")
    const entailmentOnly = [head, ...rows.map((l) => (l === "" ? l : l.split("\t").map((f, k) => (k === r ? "NA" : f)).join("\t")))].join("\n")
    const submissions = [
      { name: "EntailmentOnly", files: { "run.txt": entailmentOnly } },
      // Insight entered relatedness only (NA in every entailment_judgment)
      { name: "Insight", files: { "run.txt": fs.readFileSync(path.join(sickExample.runs, "Insight_run1primary.txt")) } },
      { name: "MeaningFactory", files: { "run.txt": text } },
      { name: "Baseline", files: { "run.txt": fs.readFileSync(path.join(sickExample.runs, "Baseline-overlap_run1primary.txt")) } }
    ]
    const dev = writeSickDev(path.join(work, "sick-dev"))
    const relatedness = path.join(work, "sick-relatedness")
    await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, devGold: dev, out: relatedness, cliBundle: cli, liveTest: true }))
    const onRelatedness = await submit(relatedness, submissions)
    expect(onRelatedness.failed).toEqual(["EntailmentOnly"])
    const pearsonOf = (name: string) => onRelatedness.entries.find((e) => e.name === name)!.scores["relatedness_pearson"]
    const byRelatedness = leaderboardOrder(boardOf(relatedness).columns, boardOf(relatedness).primary_index, onRelatedness.entries)
    expect([...byRelatedness].sort()).toEqual(["Baseline", "Insight", "MeaningFactory"])
    expect(byRelatedness.map(pearsonOf)).toEqual([...byRelatedness.map(pearsonOf)].sort((a, b) => b - a))
    const entailment = path.join(work, "sick-entailment")
    await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, devGold: dev, out: entailment, cliBundle: cli, liveTest: true, leaderboard: "entailment" }))
    const onEntailment = await submit(entailment, submissions)
    expect(onEntailment.failed).toEqual(["Insight"])
    const order = leaderboardOrder(boardOf(entailment).columns, boardOf(entailment).primary_index, onEntailment.entries)
    const accuracy = (name: string) => onEntailment.entries.find((e) => e.name === name)!.scores["entailment_accuracy"]
    expect([...order].sort()).toEqual(["Baseline", "EntailmentOnly", "MeaningFactory"])
    expect(order.map(accuracy)).toEqual([...order.map(accuracy)].sort((a, b) => b - a))
  })

  it("SemRel: a competition per language ranks that language; with the mean board, an eng-only run fails rather than topping an amh+eng run", async () => {
    const edition = { ...semrel, datasets: semrel.datasets.map(({ pairs: _pairs, ...d }) => d) }
    const languages = edition.datasets.filter((d) => d.goldNotPublic === undefined).map((d) => d.name)
    const data = writeSemRel(path.join(work, "semrel"), edition, 30, languages)
    const files = filesOf(data.run)
    const only = (...ls: ReadonlyArray<string>) => Object.fromEntries(Object.entries(files).filter(([f]) => ls.some((l) => f === `pred_${l}.csv`)))
    const competitions = await run(Bundle.writeBundles({ task: edition, gold: data.gold, out: path.join(work, "semrel-each"), cliBundle: cli, liveTest: true }))
    expect(competitions.map((w) => w.board.name)).toEqual(languages)
    const amh = competitions.find((w) => w.board.name === "amh")!
    // the amh competition: an eng-only run is not an amh run (its file is none of amh's): it fails
    const onAmh = await submit(amh.out, [
      { name: "eng-only", files: only("eng") },
      { name: "amh", files: only("amh") }
    ])
    expect(onAmh.failed).toEqual(["eng-only"])
    expect(onAmh.entries.map((e) => Object.keys(e.scores))).toEqual([["spearman", "pearson"]])
    const mean = path.join(work, "semrel-mean")
    await run(Bundle.writeBundle({ task: edition, gold: data.gold, out: mean, cliBundle: cli, liveTest: true, leaderboard: "mean" }))
    const onMean = await submit(mean, [
      { name: "eng-only", files: only("eng") },
      { name: "amh+eng", files: only("amh", "eng") },
      { name: "all", files }
    ])
    expect(onMean.failed).toEqual(["eng-only", "amh+eng"])
    expect(leaderboardOrder(boardOf(mean).columns, boardOf(mean).primary_index, onMean.entries)).toEqual(["all"])
  })

  it("SICK, a tie on relatedness: a later relatedness-only submission (no entailment figure) is not listed above the earlier complete one", async () => {
    const text = fs.readFileSync(path.join(sickExample.runs, "MeaningFactory_run1primary.txt"), "utf8")
    const [head, ...rows] = text.split("\n")
    const e = head.split("\t").indexOf("entailment_judgment")
    const relatednessOnly = [head, ...rows.map((l) => (l === "" ? l : l.split("\t").map((f, k) => (k === e ? "NA" : f)).join("\t")))].join("\n")
    const bundle = path.join(work, "sick-tie")
    await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, out: bundle, cliBundle: cli, liveTest: true }))
    const { entries, failed } = await submit(bundle, [
      { name: "complete", files: { "run.txt": text } },
      { name: "relatedness-only", files: { "run.txt": relatednessOnly } }
    ])
    expect(failed).toEqual([])
    // the same relatedness figures; the later one has no entailment accuracy
    expect(entries[1].scores["relatedness_pearson"]).toBe(entries[0].scores["relatedness_pearson"])
    expect(entries[1].scores["entailment_accuracy"]).toBeUndefined()
    const board = boardOf(bundle)
    expect(board.columns.map((c) => c.key)).toEqual(["relatedness_pearson", "relatedness_spearman", "relatedness_mse", "figures", "entailment_accuracy"])
    expect([entries[0].scores["figures"], entries[1].scores["figures"]]).toEqual([4, 3])
    expect(leaderboardOrder(board.columns, board.primary_index, entries)).toEqual(["complete", "relatedness-only"])
    // without the count, as before: NULL first in entailment_accuracy's descending order
    const without = board.columns.filter((c) => c.key !== "figures")
    expect(leaderboardOrder(without, 0, entries)).toEqual(["relatedness-only", "complete"])
  })

  it("boards whose other columns are filled whenever the primary is (STS 2017's mean of all tracks, STS-B, a SemRel language) get no count column; STS 2012-2016 (a dataset not sent counts as 0) do", () => {
    const keys = (task: string, name?: string) => {
      const b = Scores.board(Registry.get(task)!, name)
      return "problem" in b ? [] : b.columns.map((c) => c.key)
    }
    expect(keys("sts2017")).not.toContain("figures")
    expect(keys("stsb")).toEqual(["pearson", "spearman"])
    expect(keys("semrel2024-a", "eng")).not.toContain("figures")
    expect(keys("sts2014")[0]).toBe("figures")
    expect(keys("sick2014", "entailment")[0]).toBe("figures")
  })
})
