/**
 * The board reads the engine's ranking and marks (issue 33): its ranks are `Rank.rank`'s on the
 * same runs (as `Engine.score` ranks them), its marks `Marks.compute`'s on that ranking, and both
 * are computed again only when the published runs change: a status change alone (a run queued,
 * then gone) calls neither. Calls are counted through the modules the board imports.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Engine } from "@stseval/scoring"
import type * as Scoring from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import { Effect } from "effect"
import { beforeAll, describe, expect, it, vi } from "vitest"
import { snapshot } from "../src/internal/publish.js"
import type { Published } from "../src/internal/session.js"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import { sts2017Session } from "./fixtures/harness.js"
import { sessionOf, track } from "./fixtures/snapshot.js"

const calls = vi.hoisted(() => ({ rank: 0, marks: 0 }))

vi.mock("@stseval/scoring", async (importOriginal) => {
  const original = await importOriginal<typeof Scoring>()
  const rank: typeof original.Rank.rank = (runs, options) => {
    calls.rank++
    return original.Rank.rank(runs, options)
  }
  return { ...original, Rank: { ...original.Rank, rank } }
})

vi.mock("@stseval/scoring/Marks", async (importOriginal) => {
  const original = await importOriginal<typeof Marks>()
  const compute: typeof original.compute = (results, options) => {
    calls.marks++
    return original.compute(results, options)
  }
  return { ...original, compute }
})

let state = 33
const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
const noisy = (g: ReadonlyArray<number>, sd: number) => g.map((v) => `${Math.round((v + sd * (rand() - 0.5) * 4) * 1000) / 1000}\n`).join("")

const sts2017 = Registry.get("sts2017")!
const { goldDir, folder } = sts2017Session("ranked", 30, rand, (g) => ({
  Ace_run1primary: noisy(g, 0.5),
  Ace_run2: noisy(g, 0.52),
  Bee_run1primary: noisy(g, 0.6),
  Cat_run1primary: noisy(g, 2),
  Dog_run1primary: noisy(g, 0.55)
}))

/** A published record of an engine's scored run, as the watcher keeps it (outcome and, with marks on, the run). */
const published = (run: ScoredRun.ScoredRun): Published => ({
  // the run folder's name (`Ace_run1primary`)
  entry: `${run.meta.team}_run${run.meta.run}${run.meta.primary ? "primary" : ""}`,
  kind: "folder",
  team: run.meta.team,
  run: run.meta.run,
  primary: run.meta.primary,
  late: false,
  corrected: false,
  hash: `hash-${run.meta.id}`,
  submittedAt: 0,
  outcome: ScoringAdapter.toOutcome(run),
  scored: run,
  key: `key-${run.meta.id}`,
  sig: `sig-${run.meta.id}`
})

describe("the board's ranking and marks: the engine's, computed when the published runs change", () => {
  let results: Engine.Results
  beforeAll(async () => {
    results = await Effect.runPromise(Engine.score({ task: sts2017, gold: goldDir, folder, primaryOnly: false, runLimit: 3, onePrimary: true }).pipe(Effect.provide(NodeServices.layer)))
  })

  it("a status change alone ranks and marks nothing again; the ranks and marks are the engine's", () => {
    const records = results.runs.map(published)
    // the last run still queued
    const tracks = records.map((r, i) => track(r.entry, i < records.length - 1 ? r : undefined))
    const last = tracks[tracks.length - 1]
    const session = sessionOf(tracks, { edition: sts2017, marks: true, primaryOnly: false })
    snapshot(session)
    // the last run published: the board of every run, ranked and marked
    last.published = records[records.length - 1]
    session.counters.pending = 0
    const board = snapshot(session)
    const before = { ...calls }
    // status changes alone: a new run queued, then its entry gone (nothing published changed)
    session.tracks.set("Eel_run1primary", track("Eel_run1primary", undefined))
    session.counters.pending = 1
    snapshot(session)
    session.tracks.delete("Eel_run1primary")
    session.counters.pending = 0
    expect(snapshot(session)).toEqual(board)
    expect(calls).toEqual(before)

    // the engine's ranking of the same runs, and the marks on it
    const engineRanks = results.ranked.rankings.map((k) => [k.ranking, k.entries.map((e) => [e.meta.id, e.rank ?? null])])
    expect(board.rankings.map((k) => [k.ranking, k.entries.map((e) => [e.id, e.rank])])).toEqual(engineRanks)
    expect(board.marks).toEqual(Marks.compute(results).figures.map(Marks.toJson))
    expect(board.marks?.find((m) => m.key === "aggregate:official")?.tied.length).toBeGreaterThan(0)
  })
})
