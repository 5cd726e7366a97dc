/**
 * The watcher wired to the real engine (`@stseval/scoring`) and report renderer (`@stseval/tables`).
 *
 * `layer({ task, gold })` loads the edition and its gold once (as `Engine.loadContext` does for
 * `stseval rank`), fingerprints the gold for the cache key, and scores each run with
 * `Engine.scoreSubmission`: the watcher's figures are the engine's, run for run. `renderer(edition)`
 * prints the leaderboard through the report package's Markdown and HTML renderers.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import type { Issue, Registry } from "@stseval/formats"
import { Html, Markdown } from "@stseval/tables"
import type { Table } from "@stseval/tables"
import { Engine, Json } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
import { Effect, FileSystem, Layer, Option, Path } from "effect"
import type { Leaderboard, LeaderboardRun } from "./Leaderboard.js"
import { Renderer } from "./Render.js"
import type { RendererShape } from "./Render.js"
import { Scorer } from "./Scorer.js"
import type { OfficialFigure, RunOutcome } from "./Scorer.js"

/**
 * Part of every cache key. Bump it whenever the engine may score a run differently (a fixed bug, a
 * new rule), so that cached scores of the old engine are not reused.
 *
 * @since 0.1.0
 */
export const ENGINE_VERSION = "@stseval/scoring@0.1.0#1"

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
  failure: run.failure,
  official: run.official.map(
    (o): OfficialFigure =>
      o.value._tag === "Defined"
        ? { ranking: o.ranking, metric: o.metric, value: o.value.value }
        : { ranking: o.ranking, metric: o.metric, value: null, reason: o.value.reason }
  ),
  errors: run.errors,
  warnings: run.warnings,
  detail: Json.toJson(run)
})

/**
 * SHA-256 over the edition (a user edition may change what is scored) and every gold file's bytes.
 *
 * @since 0.1.0
 */
export const goldFingerprint = (edition: Registry.TaskEdition, goldPath: string | undefined) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const h = createHash("sha256")
    h.update(JSON.stringify(edition))
    if (goldPath === undefined) return h.update("\0no gold").digest("hex")
    const info = yield* fs.stat(goldPath).pipe(Effect.option)
    const isDir = Option.isSome(info) && info.value.type === "Directory"
    const files = isDir ? edition.datasets.map((d) => path.join(goldPath, d.gold)) : [goldPath]
    for (const file of files) {
      const bytes = yield* fs.readFile(file).pipe(Effect.option)
      h.update(`\0${path.basename(file)}\0`)
      if (Option.isSome(bytes)) h.update(bytes.value)
      else h.update("missing")
    }
    return h.digest("hex")
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
      const goldHash = yield* goldFingerprint(context.edition, context.goldPath)
      for (const issue of context.gold.issues) {
        if (issue.severity === "error") yield* Effect.logWarning(`gold: ${issue.file}: ${issue.message}`)
      }
      return {
        edition: context.edition,
        goldHash,
        engineVersion: ENGINE_VERSION,
        score: (submission) => Effect.sync(() => toOutcome(Engine.scoreSubmission(context, submission)))
      }
    })
  )

// ---------------------------------------------------------------------------------------------
// Rendering through @stseval/tables
// ---------------------------------------------------------------------------------------------

const styleOf = (edition: Registry.TaskEdition | undefined, metric: string): Table.NumberStyle =>
  metric === "accuracy"
    ? { decimals: 2, suffix: "%" }
    : edition?.published.style === "r100"
      ? { decimals: 2, scale: 100 }
      : { decimals: 3 }

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
    cells.note = { _tag: "text", text: note, marks: [] }
    return { id: run.id, cells, marks: rowMarks(run) }
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
