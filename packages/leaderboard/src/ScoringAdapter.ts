/**
 * The watcher wired to the real engine (`@stseval/scoring`) and report renderer (`@stseval/tables`).
 *
 * `layer({ task, gold })` loads the edition and its gold once (`Engine.loadContext`, the first half
 * of `Engine.score`), signs it (`Signature`: edition, gold, engine; the cache key's part), and scores each run with
 * `Engine.scoreSubmission`: the watcher's figures are the engine's, run for run. `renderer(edition)`
 * prints the leaderboard through the report package's Markdown and HTML renderers.
 *
 * @since 0.1.0
 */
import type { Issue, Registry } from "@stseval/formats"
import { Html, Markdown } from "@stseval/tables"
import type { Table } from "@stseval/tables"
import { Engine, Json, Signature, Style } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
import { Effect, Layer } from "effect"
import type { Leaderboard, LeaderboardRun } from "./Leaderboard.js"
import { Renderer } from "./Render.js"
import type { RendererShape } from "./Render.js"
import { Scorer } from "./Scorer.js"
import type { OfficialFigure, RunOutcome } from "./Scorer.js"

/** @since 0.1.0 */
export interface Options {
  /** a built-in edition id, a user edition file, or an edition */
  readonly task: string | Registry.TaskEdition
  /** gold folder or file; default: the edition's data folder under the data store root */
  readonly gold?: string | undefined
}

/**
 * A `ScoredRun` of the engine as the watcher's outcome; the full run (as the engine's documented
 * JSON) is kept as `detail`.
 *
 * @since 0.1.0
 */
export const toOutcome = (run: ScoredRun.ScoredRun): RunOutcome => ({
  status: run.status,
  ...(run.failure !== undefined ? { failure: run.failure } : {}),
  official: run.official.map(
    (o): OfficialFigure =>
      o.value._tag === "Defined"
        ? { ranking: o.ranking, metric: o.metric, value: o.value.value }
        : { ranking: o.ranking, metric: o.metric, value: null, reason: o.value.reason }
  ),
  errors: run.errors,
  warnings: run.warnings,
  ...(run.datasets.length > 1
    ? { datasets: run.datasets.map((d) => ({ dataset: d.dataset, value: d.status === "scored" && d.pearson._tag === "Defined" ? d.pearson.value : null })) }
    : {}),
  detail: Json.toJson(run)
})

/**
 * The real engine as the watcher's `Scorer`. Fails only when the edition cannot be resolved; a
 * missing gold makes every run fail with the gold's issues (as `stseval rank` does).
 *
 * @since 0.1.0
 */
export const layer = (options: Options) =>
  Layer.effect(Scorer)(
    Effect.gen(function* () {
      const context = yield* Engine.loadContext({ task: options.task, gold: options.gold })
      for (const issue of context.gold.issues) {
        if (issue.severity === "error") yield* Effect.logWarning(`gold: ${issue.file}: ${issue.message}`)
      }
      return {
        edition: context.edition,
        // names the edition, the gold's content and the engine version: the cache key's part
        signature: Signature.make(context.edition, context.gold).text,
        score: (submission) => Effect.sync(() => toOutcome(Engine.scoreSubmission(context, submission)))
      }
    })
  )

// ---------------------------------------------------------------------------------------------
// Rendering through @stseval/tables
// ---------------------------------------------------------------------------------------------

// the one number style of every output
const styleOf = (edition: Registry.TaskEdition | undefined, metric: string): Table.NumberStyle =>
  Style.of(edition ?? { published: { style: "r3" } }, Style.kindOf(metric))

const issueText = (i: Issue.Issue) => `${i.file}${i.line !== undefined ? `:${i.line}` : ""}: ${i.message}`

const rowMarks = (r: LeaderboardRun): ReadonlyArray<Table.RowMark> => [
  ...(r.flags.includes("late") || r.flags.includes("corrected") ? (["late"] as const) : []),
  ...(r.flags.includes("post-deadline") ? (["postDeadline"] as const) : [])
]

/**
 * The leaderboard as one report `Table`: a row per run (in the order of the headline ranking, then
 * the runs it does not rank), a rank and a figure column per ranking, and a note column with why a
 * run is not ranked or its first error. In the hidden phase's public view: status and errors only.
 *
 * @since 0.1.0
 */
export const toTable = (board: Leaderboard, edition?: Registry.TaskEdition): Table.Table => {
  const hiddenPublic = board.hidden && board.view === "public"
  const columns: Array<Table.Column> = [
    { key: "run", header: "Run", align: "left", rowLabel: true },
    { key: "team", header: "Team", align: "left" },
    { key: "primary", header: "Primary", align: "center" }
  ]
  if (!hiddenPublic) {
    for (const r of board.rankings) {
      columns.push({ key: `${r.ranking}.rank`, header: "Rank", align: "right", group: r.ranking, number: { decimals: 0 } })
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
        cells[`${r.ranking}.value`] = e?.value != null ? { _tag: "number", value: e.value, marks: e.rank === 1 ? ["best"] : [] } : { _tag: "missing", marks: [] }
        if (note === "" && e?.reason != null) note = e.reason
      }
    }
    for (const name of datasetNames) {
      const figure = run.datasets.find((d) => d.dataset === name)
      cells[`dataset.${name}`] = figure?.value != null ? { _tag: "number", value: figure.value, marks: [] } : { _tag: "missing", marks: [] }
    }
    cells.note = { _tag: "text", text: note, marks: [] }
    return { id: run.id, cells, marks: rowMarks(run), flags: { late: run.late, corrected: run.corrected, postDeadline: run.postDeadline } }
  })
  return {
    id: `leaderboard-${board.task}`,
    title: `Leaderboard: ${board.task}${hiddenPublic ? " (hidden phase: validation only)" : ""}`,
    caption: `${board.counts.runs} runs: ${board.counts.scored} scored, ${board.counts.failed} failed${hiddenPublic ? "" : `, ${board.counts.ranked} ranked`}. Run limit ${board.runLimit} per team${board.deadline !== null ? `; deadline ${board.deadline}` : ""}.`,
    label: `tab:leaderboard-${board.task}`,
    wide: false,
    columns,
    sections: [{ rows }],
    footnotes: ["* late or corrected submission; \u2020 submitted after the deadline.", ...(hiddenPublic ? [] : ["\u2022 best in the column."])]
  }
}

/**
 * A renderer printing the leaderboard with `@stseval/tables`'s Markdown and HTML renderers.
 *
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
 * @since 0.1.0
 */
export const layerWithReport = (options: Options) => Layer.provideMerge(rendererLayer, layer(options))
