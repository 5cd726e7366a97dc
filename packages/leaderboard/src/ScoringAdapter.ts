/**
 * The watcher wired to the real engine (`@stseval/scoring`) and report renderer (`@stseval/tables`).
 *
 * `layer({ task, gold })` loads the edition and its gold once (`Engine.loadContext`, the first half
 * of `Engine.score`), signs it (`Signature`: edition, gold, engine; the cache key's part), and scores each run
 * in isolation under a budget (`Isolation.scoreSubmission`, the engine's way for a run already
 * read): the watcher's figures are the engine's, run for run. `renderer(edition)`
 * prints the leaderboard through the report package's Markdown and HTML renderers.
 *
 * @since 0.1.0
 */
import { Files } from "@stseval/formats"
import type { Issue, Registry, Submissions } from "@stseval/formats"
import { Html, Layouts, Markdown } from "@stseval/tables"
import type { Table } from "@stseval/tables"
import { MetricValue } from "@stseval/metrics"
import { Engine, Isolation, Json, Signature, Uncertainty } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
import { Effect, FileSystem, Layer, Option, Path } from "effect"
import type { Leaderboard, LeaderboardRun } from "./Leaderboard.js"
import { Renderer, styleOf } from "./Render.js"
import type { RendererShape } from "./Render.js"
import { Scorer } from "./Scorer.js"
import type { OfficialFigure, RunOutcome } from "./Scorer.js"

/**
 * @example
 * ```ts
 * import { ScoringAdapter } from "@stseval/leaderboard"
 *
 * const options: ScoringAdapter.Options = { task: "sts2017", gold: "data/sts2017/gold" }
 * ```
 * @since 0.1.0
 */
export interface Options {
  /** a built-in edition id, a user edition file, or an edition */
  readonly task: string | Registry.TaskEdition
  /** gold folder or file; default: the edition's data folder under the data store root */
  readonly gold?: string | undefined
  /**
   * each run's budget in isolation (`Isolation.Options` of @stseval/scoring; default its
   * `defaultBudget`): a run over it is published failed with the reason, and the watcher goes on
   *
   * @since 0.3.0
   */
  readonly isolation?: Isolation.Options | undefined
}

/**
 * A `ScoredRun` of the engine as the watcher's outcome; the full run (as the engine's documented
 * JSON) is kept as `detail`.
 *
 * @example
 * ```ts
 * import { ScoringAdapter } from "@stseval/leaderboard"
 * import type { ScoredRun } from "@stseval/scoring"
 *
 * declare const run: ScoredRun.ScoredRun
 * const outcome = ScoringAdapter.toOutcome(run) // what the cache keeps of a scored run
 * ```
 * @since 0.1.0
 */
export const toOutcome = (run: ScoredRun.ScoredRun): RunOutcome => ({
  status: run.status,
  ...(run.failure !== undefined ? { failure: run.failure } : {}),
  official: run.official.map(
    (o): OfficialFigure =>
      o.value._tag === "Defined"
        ? { ranking: o.ranking, metric: o.metric, direction: o.direction, value: o.value.value }
        : { ranking: o.ranking, metric: o.metric, direction: o.direction, value: null, reason: o.value.reason }
  ),
  errors: run.errors,
  warnings: run.warnings,
  ...(run.datasets.length > 1
    ? { datasets: run.datasets.map((d) => ({ dataset: d.dataset, value: d.status === "scored" && d.figures[d.metric]?._tag === "Defined" ? MetricValue.getOrNaN(d.figures[d.metric]) : null })) }
    : {}),
  detail: Json.toJson(run)
})

/**
 * The real engine as the watcher's `Scorer`. Fails only when the edition cannot be resolved; a
 * missing gold makes every run fail with the gold's issues (as `stseval rank` does).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ScoringAdapter, Watcher } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * // scores with the scoring engine (gold read once); the minimal board renderer
 * const summary = await Effect.runPromise(
 *   Watcher.watch({ folder: "submissions", out: "board", once: true }).pipe(
 *     Effect.provide(ScoringAdapter.layer({ task: "sick2014", gold: "SICK_test_annotated.txt" })),
 *     Effect.provide(NodeServices.layer)
 *   )
 * )
 * ```
 * @since 0.1.0
 */
export const layer = (options: Options) =>
  Layer.effect(Scorer)(
    Effect.gen(function* () {
      const context = yield* Engine.loadContext({ task: options.task, gold: options.gold })
      // the gold's folder, resolved and real: messages name it one way or the other
      const path = yield* Path.Path
      const fs = yield* FileSystem.FileSystem
      const goldFolders: Array<string> = []
      if (context.goldPath !== undefined) {
        const info = yield* fs.stat(context.goldPath).pipe(Effect.option)
        const folder = Option.isSome(info) && info.value.type === "Directory" ? context.goldPath : path.dirname(context.goldPath)
        const real = yield* Files.realPath(folder)
        goldFolders.push(...new Set([path.resolve(folder), ...(real !== undefined ? [real] : [])]))
      }
      for (const issue of context.gold.issues) {
        if (issue.severity === "error") yield* Effect.logWarning(`gold: ${issue.file}: ${issue.message}`)
      }
      // Intervals (`--ci`) need each run's aligned scores, which the JSON outcome in the cache does
      // not hold. The run `score` just made is handed to `scoreRun` (keyed by the submission, so
      // it lives as long as the watcher holds the submission: nothing is kept without `--ci`); a
      // run whose outcome came from the cache is scored again from its bytes. Why not cache the
      // aligned scores: the watcher reads and hashes every run's bytes anyway to find its cache
      // key (at each start too), and scoring one run takes milliseconds, while a cached copy would
      // need a second way from JSON back to a `ScoredRun` (and make every cache file as large as
      // the run); scored again, the aligned scores always come from the engine that signed the
      // figures (the signature is part of the cache key).
      const justScored = new WeakMap<Submissions.Submission, ScoredRun.ScoredRun>()
      return {
        edition: context.edition,
        // names the edition, the gold's content and the engine version: the cache key's part
        signature: Signature.make(context.edition, context.gold).text,
        reads: goldFolders,
        // each run read in a scorer of its own, under its budget (@stseval/scoring's Isolation):
        // a run that takes too long or too much, or crashes its scorer, fails; the watcher goes on
        isolated: true,
        score: (submission) =>
          Effect.map(Isolation.scoreSubmission(context, submission, options.isolation), (run) => {
            justScored.set(submission, run)
            return toOutcome(run)
          }),
        scoreRun: (submission) => {
          const known = justScored.get(submission)
          return known !== undefined ? Effect.succeed(known) : Isolation.scoreSubmission(context, submission, options.isolation)
        }
      }
    })
  )

// ---------------------------------------------------------------------------------------------
// Rendering through @stseval/tables
// ---------------------------------------------------------------------------------------------

const issueText = (i: Issue.Issue) => `${i.file}${i.line !== undefined ? `:${i.line}` : ""}: ${i.message}`

const rowMarks = (r: LeaderboardRun, overlapsBest: boolean): ReadonlyArray<Table.RowMark> => [
  ...(r.flags.includes("late") || r.flags.includes("corrected") ? (["late"] as const) : []),
  ...(r.flags.includes("post-deadline") ? (["postDeadline"] as const) : []),
  ...(overlapsBest ? (["overlapsBest"] as const) : [])
]

/** A figure's cell, with its interval when it has one (`--ci`: HTML draws an error bar, as `report --ci`). */
const figureCell = (
  f: { readonly value: number | null; readonly ci?: { readonly low: number; readonly high: number } | null | undefined } | undefined,
  marks: ReadonlyArray<Table.CellMark> = []
): Table.Cell =>
  f?.value != null ? { _tag: "number", value: f.value, marks, ...(f.ci != null ? { ci: { low: f.ci.low, high: f.ci.high } } : {}) } : { _tag: "missing", marks: [] }

/**
 * The leaderboard as one report `Table`: a row per run (in the order of the headline ranking, then
 * the runs it does not rank), a rank and a figure column per ranking, and a note column with why a
 * run is not ranked or its first error. In the hidden phase's public view: status and errors only.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard, ScoringAdapter } from "@stseval/leaderboard"
 * import { Markdown } from "@stseval/tables"
 *
 * declare const board: Leaderboard.Leaderboard
 * const md = Markdown.render(ScoringAdapter.toTable(board, Registry.get("sick2014")))
 * ```
 * @since 0.1.0
 */
export const toTable = (board: Leaderboard, edition?: Registry.TaskEdition): Table.Table => {
  const hiddenPublic = board.hidden && board.view === "public"
  const columns: Array<Table.Column> = [
    { key: "run", header: "Run", align: "left", rowLabel: true },
    { key: "team", header: "Team", align: "left" },
    { key: "primary", header: "Primary", align: "center" }
  ]
  // with intervals (`--ci`), the rank range after each rank, as `report --ci` prints it
  const ci = hiddenPublic ? undefined : board.intervals
  if (!hiddenPublic) {
    for (const r of board.rankings) {
      columns.push({ key: `${r.ranking}.rank`, header: "Rank", align: "right", group: r.ranking, number: { decimals: 0 } })
      if (ci !== undefined) {
        const { key, header, align, description } = Layouts.rankRangeColumn
        columns.push({ key: `${r.ranking}.${key}`, header, align: align ?? "right", group: r.ranking, description })
      }
      columns.push({ key: `${r.ranking}.value`, header: r.metric, align: "right", group: r.ranking, number: styleOf(edition, r.metric) })
    }
  }
  // per-dataset columns (STS), in the edition's order: the figures behind the official one
  const datasetNames = hiddenPublic ? [] : [...new Set(board.runs.flatMap((r) => r.datasets.map((d) => d.dataset)))]
  for (const name of datasetNames) {
    columns.push({ key: `dataset.${name}`, header: name, align: "right", group: "datasets (Pearson)", number: styleOf(edition, "pearson") })
  }
  columns.push({ key: "status", header: "Status", align: "left" }, { key: "note", header: "Note", align: "left" })
  const headline = board.rankings[0]
  const order = headline !== undefined && !hiddenPublic ? headline.entries.map((e) => e.id) : []
  const used = { overlapsBest: false, range: false }
  const runs = [...board.runs].sort((a, b) => {
    const ia = order.indexOf(a.id)
    const ib = order.indexOf(b.id)
    return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || 0
  })
  const rows: Array<Table.Row> = runs.map((run) => {
    const cells: Record<string, Table.Cell> = {
      run: { _tag: "text", text: run.id, marks: [] },
      team: { _tag: "text", text: run.team, marks: [] },
      primary: { _tag: "text", text: run.primary ? "yes" : "", marks: [] },
      status: { _tag: "text", text: run.status === "scored" ? (hiddenPublic ? "valid" : "scored") : "failed", marks: [] }
    }
    let note = run.errors[0] !== undefined ? issueText(run.errors[0]) : ""
    if (!hiddenPublic) {
      for (const r of board.rankings) {
        const e = r.entries.find((x) => x.id === run.id)
        cells[`${r.ranking}.rank`] = e?.rank != null ? { _tag: "number", value: e.rank, marks: [] } : { _tag: "missing", reason: e?.reason ?? undefined, marks: [] }
        if (ci !== undefined) {
          cells[`${r.ranking}.${Layouts.rankRangeColumn.key}`] =
            e?.rankInterval !== undefined ? { _tag: "text", text: Uncertainty.formatRankInterval(e.rankInterval), marks: [] } : { _tag: "missing", marks: [] }
          used.range ||= e?.rankInterval !== undefined
        }
        cells[`${r.ranking}.value`] = figureCell(e, e?.rank === 1 ? ["best"] : [])
        if (note === "" && e?.reason != null) note = e.reason
      }
    }
    for (const name of datasetNames) {
      cells[`dataset.${name}`] = figureCell(run.datasets.find((d) => d.dataset === name))
    }
    cells.note = { _tag: "text", text: note, marks: [] }
    // `≈` by the headline ranking, the one the rows are ordered by
    const overlapsBest = ci !== undefined && headline?.entries.find((x) => x.id === run.id)?.overlapsBest === true
    used.overlapsBest ||= overlapsBest
    return { id: run.id, cells, marks: rowMarks(run, overlapsBest), flags: { late: run.late, corrected: run.corrected, postDeadline: run.postDeadline } }
  })
  return {
    id: `leaderboard-${board.task}`,
    title: `Leaderboard: ${board.task}${hiddenPublic ? " (hidden phase: validation only)" : ""}`,
    caption: `${board.counts.runs} runs: ${board.counts.scored} scored, ${board.counts.failed} failed${hiddenPublic ? "" : `, ${board.counts.ranked} ranked`}. Run limit ${board.runLimit} per team${board.deadline !== null ? `; deadline ${board.deadline}` : ""}.`,
    label: `tab:leaderboard-${board.task}`,
    wide: false,
    columns,
    sections: [{ rows }],
    footnotes: [
      "* late or corrected submission; \u2020 submitted after the deadline.",
      ...(hiddenPublic ? [] : ["\u2022 best in the column."]),
      ...(ci !== undefined ? [...Layouts.intervalFootnotes(ci, used), `Intervals' signature: ${ci.signature}`] : [])
    ]
  }
}

/**
 * A renderer printing the leaderboard with `@stseval/tables`'s Markdown and HTML renderers.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard, ScoringAdapter } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * const { md, html } = ScoringAdapter.renderer(Registry.get("sick2014")).render(board)
 * ```
 * @since 0.1.0
 */
export const renderer = (edition?: Registry.TaskEdition): RendererShape => ({
  render: (board) => {
    const table = toTable(board, edition)
    return { md: Markdown.render(table), html: Html.render(table) }
  }
})

/**
 * Provide the report renderer to the watcher, styled for the `Scorer`'s edition.
 *
 * @example
 * ```ts
 * import { ScoringAdapter } from "@stseval/leaderboard"
 * import { Layer } from "effect"
 *
 * // the papers' tables for the edition the scorer scores (what layerWithReport provides)
 * const engine = Layer.provideMerge(ScoringAdapter.rendererLayer, ScoringAdapter.layer({ task: "sick2014", gold: "SICK_test_annotated.txt" }))
 * ```
 * @since 0.1.0
 */
export const rendererLayer = Layer.effect(Renderer)(
  Effect.gen(function* () {
    const scorer = yield* Scorer
    return renderer(scorer.edition)
  })
)

/**
 * The real engine and the report renderer together: what `stseval watch` provides to `Watcher.watch`.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ScoringAdapter, Watcher } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * // the scoring engine, and the papers' tables on the board
 * const summary = await Effect.runPromise(
 *   Watcher.watch({ folder: "submissions", out: "board", once: true }).pipe(
 *     Effect.provide(ScoringAdapter.layerWithReport({ task: "sick2014", gold: "SICK_test_annotated.txt" })),
 *     Effect.provide(NodeServices.layer)
 *   )
 * )
 * summary.scored
 * ```
 * @since 0.1.0
 */
export const layerWithReport = (options: Options) => Layer.provideMerge(rendererLayer, layer(options))
