/**
 * Markdown and HTML of a leaderboard, through `@stseval/tables` (the report's renderers, its one
 * HTML escaper and plot glyphs): `toTable` lays the board out as one report `Table` in the board's
 * own order (its ranking, `Rank.rank` over the runs' outcomes: nothing here ranks), with the
 * board's marks (`leaderboard.json`'s `marks`: bold where a run is not significantly different from
 * the best ranked run) and intervals. `Renderer` is an Effect reference: the watcher renders with
 * it, styled for the scorer's edition when `ScoringAdapter.rendererLayer` provides it.
 *
 * @since 0.1.0
 */
import { type Issue, Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import { Rank, Style, Uncertainty } from "@stseval/scoring"
import * as Marks from "@stseval/scoring/Marks"
import { Footnotes, Html, Layouts, Markdown, Table } from "@stseval/tables"
import { Context } from "effect"
import type { Leaderboard, LeaderboardRun } from "./Leaderboard.js"

/**
 * @example
 * ```ts
 * import { Render } from "@stseval/leaderboard"
 * import type { Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * const { md, html }: Render.Rendered = Render.renderer().render(board)
 * ```
 * @since 0.1.0
 */
export interface Rendered {
  readonly md: string
  readonly html: string
}

/**
 * A renderer; `edition` (the watcher's) gives the published number style.
 *
 * @example
 * ```ts
 * import { Render } from "@stseval/leaderboard"
 *
 * // the tables' renderer, Markdown only
 * const mine: Render.RendererShape = { render: (board, edition) => ({ md: Render.markdown(board, edition), html: "" }) }
 * ```
 * @since 0.1.0
 */
export interface RendererShape {
  readonly render: (board: Leaderboard, edition?: Registry.TaskEdition) => Rendered
}

/**
 * The number style of a figure named `metric` (`pearson`, `mean`, `accuracy`...): scoring's
 * `Style`, the one style of every output; without an edition, r to 3 decimals.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Render } from "@stseval/leaderboard"
 *
 * Render.styleOf(Registry.get("sts2017")!, "pearson") // { decimals: 2, scale: 100 }: r x 100
 * ```
 * @since 0.2.0
 */
export const styleOf = (edition: Registry.TaskEdition | undefined, metric: string): Style.NumberStyle =>
  Style.forMetric(edition ?? { published: { style: "r3" } }, metric)

const issueText = (i: Issue.Issue) => `${i.file}${i.line !== undefined ? `:${i.line}` : ""}: ${i.message}`

/** A column as a footnote names it: a ranking's figure by its ranking ("official (Pearson)"), a dataset's by its name. */
const columnName = (c: Table.Column): string => (c.key.endsWith(".value") && c.group !== undefined ? `${c.group} (${c.header})` : c.header)

const rowMarks = (r: LeaderboardRun, overlapsBest: boolean): ReadonlyArray<Table.RowMark> => [
  ...(r.flags.includes("late") || r.flags.includes("corrected") ? (["late"] as const) : []),
  ...(r.flags.includes("post-deadline") ? (["postDeadline"] as const) : []),
  ...(r.flags.includes("zeroed") ? (["zeroed"] as const) : []),
  ...(overlapsBest ? (["overlapsBest"] as const) : [])
]

/**
 * A figure's cell, with its interval when it has one (`--ci`: HTML draws it, as `report --ci`) and
 * how few pairs it rests on when fewer than 100 (printed `‡`, as the report prints it).
 */
const figureCell = (
  f: { readonly value: number | null; readonly ci?: { readonly low: number; readonly high: number; readonly fewPairs?: number | undefined } | null | undefined } | undefined,
  marks: ReadonlyArray<Table.CellMark>,
  missing: { readonly kind: Table.MissingKind | undefined; readonly reason?: string | null | undefined }
): Table.Cell =>
  f?.value != null
    ? { _tag: "number", value: f.value, marks, ...(f.ci != null ? { ci: { low: f.ci.low, high: f.ci.high, ...(f.ci.fewPairs !== undefined ? { fewPairs: f.ci.fewPairs } : {}) } } : {}) }
    : { _tag: "missing", marks: [], ...(missing.kind !== undefined ? { kind: missing.kind } : {}), ...(missing.reason != null ? { reason: missing.reason } : {}) }

/** Why a run has no figure on a dataset (`Table.MissingKind`); unknown for a board cached before datasets carried their status. */
const datasetMissing = (run: LeaderboardRun, f: LeaderboardRun["datasets"][number] | undefined): Table.MissingKind | undefined =>
  run.status === "failed" || f?.status === "not-scored"
    ? "failed"
    : f === undefined || f.status === "missing"
      ? "notSubmitted"
      : f.status === "scored"
        ? "undefined"
        : undefined

/** A metric as people read it: its label (`Spearman`). */
const labelOf = (metric: string) => Metrics.get(metric)?.label ?? metric

/** The marks of a ranking's figure: its official figure over several datasets, else its one dataset's. */
const rankingMarks = (board: Leaderboard, ranking: string) => {
  const own = (board.marks ?? []).filter((m) => m.ranking === ranking)
  return own.find((m) => m.dataset === undefined) ?? (own.length === 1 ? own[0] : undefined)
}

/**
 * The leaderboard as one report `Table`: a row per run (in the order of the headline ranking, then
 * the runs it does not rank), a rank and a figure column per ranking (bold where the board's marks
 * tie the run with the best, a bullet on the best ranked figure), each dataset's figure by its
 * ranked metric, and a note column with why a run is not ranked or its first error. In the hidden
 * phase's public view: status and errors only.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard, Render } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard // leaderboard.json
 * const edition = Registry.get("sts2017")!
 *
 * // the rows in the board's ranking, bold from its marks
 * const rows = Render.toTable(board, edition).sections[0].rows.map((r) => r.id)
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
      columns.push({ key: `${r.ranking}.value`, header: labelOf(r.metric), align: "right", group: r.ranking, number: styleOf(edition, r.metric) })
    }
  }
  // per-dataset columns (STS tracks, SemRel languages), in the edition's order: each dataset's
  // figure by the metric its ranking orders by
  const datasets = hiddenPublic ? [] : [...new Map(board.runs.flatMap((r) => r.datasets.map((d) => [d.dataset, d.metric] as const))).entries()]
  // a dataset ranked on its own (SemRel's languages) already has its figure beside its rank, in its
  // ranking's group: a second column of the same figure only widens the page
  const ownRanking = new Set(hiddenPublic ? [] : board.rankings.map((r) => `${r.ranking}\u0000${r.metric}`))
  const shown = datasets.filter(([name, metric]) => !ownRanking.has(`${name}\u0000${metric}`))
  for (const [name, metric] of shown) {
    // headed by the edition's display name (`ar-ar`, not `track1.ar-ar`), as the report heads them
    columns.push({ key: `dataset.${name}`, header: Registry.datasetHeader(edition, name), align: "right", group: `datasets (${labelOf(metric)})`, number: styleOf(edition, metric) })
  }
  columns.push({ key: "status", header: "Status", align: "left" }, { key: "note", header: "Note", align: "left", prose: true })
  const headline = board.rankings[0]
  const order = headline !== undefined && !hiddenPublic ? headline.entries.map((e) => e.id) : []
  const used = { overlapsBest: false, range: false, tied: new Map<string, Array<string>>(), missing: new Set<Table.MissingKind | "other">() }
  const missingOf = (kind: Table.MissingKind | undefined, reason?: string | null) => {
    used.missing.add(kind ?? "other")
    return { kind, reason }
  }
  // each run's entry by id, looked up once (a search per run and ranking made a 500-run board's
  // rendering quadratic: ~100 ms of each watcher write)
  const firstById = <E extends { readonly id: string }>(entries: ReadonlyArray<E>): Map<string, E> => {
    const byId = new Map<string, E>()
    for (const e of entries) if (!byId.has(e.id)) byId.set(e.id, e)
    return byId
  }
  const entriesOf = new Map(board.rankings.map((r) => [r, firstById(r.entries)]))
  const position = new Map<string, number>()
  for (const [i, id] of order.entries()) if (!position.has(id)) position.set(id, i)
  const runs = [...board.runs].sort((a, b) => (position.get(a.id) ?? Infinity) - (position.get(b.id) ?? Infinity) || 0)
  // the best ranked figure of each dataset, for its bullet (among the runs the headline ranking ranks)
  const ranked = new Set(headline?.entries.flatMap((e) => (e.rank !== null ? [e.id] : [])) ?? [])
  const bestOf = new Map<string, number>()
  for (const [name, metric] of datasets) {
    const best = Rank.best(
      board.runs.flatMap((r) => (ranked.has(r.id) ? [r.datasets.find((d) => d.dataset === name)?.value] : [])),
      Metrics.get(metric)?.direction ?? "higher"
    )
    if (best !== undefined) bestOf.set(name, best)
  }
  // the rule of each bold (`Marks.describe`: test, resamples, p-value, correction), as report says it
  // (and the columns it applies to, for the footnotes: STS 2017 has two rules, tracks and Primary)
  const tiedIn = (m: Parameters<typeof Marks.describe>[0] & { readonly tied: ReadonlyArray<string> } | undefined, id: string, header: string): ReadonlyArray<Table.CellMark> => {
    if (m?.test === undefined || !m.tied.includes(id)) return []
    const rule = Marks.describe(m)
    const headers = used.tied.get(rule) ?? []
    if (!headers.includes(header)) headers.push(header)
    used.tied.set(rule, headers)
    return ["tied"]
  }
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
        const e = entriesOf.get(r)?.get(run.id)
        if (e?.rank != null) cells[`${r.ranking}.rank`] = { _tag: "number", value: e.rank, marks: [] }
        else {
          used.missing.add("notRanked")
          cells[`${r.ranking}.rank`] = { _tag: "missing", reason: e?.reason ?? undefined, kind: "notRanked", marks: [] }
        }
        if (ci !== undefined) {
          cells[`${r.ranking}.${Layouts.rankRangeColumn.key}`] =
            e?.rankInterval !== undefined ? { _tag: "text", text: Uncertainty.formatRankInterval(e.rankInterval), marks: [] } : { _tag: "missing", kind: "notRanked", marks: [] }
          used.range ||= e?.rankInterval !== undefined
        }
        cells[`${r.ranking}.value`] = figureCell(
          e,
          [...(e?.rank === 1 ? (["best"] as const) : []), ...tiedIn(rankingMarks(board, r.ranking), run.id, columnName(columns.find((c) => c.key === `${r.ranking}.value`)!))],
          e?.value != null
            ? { kind: undefined }
            : missingOf(
                // a ranking of one dataset (SemRel's languages) lacks its figure as the dataset does
                datasets.some(([name]) => name === r.ranking) ? datasetMissing(run, run.datasets.find((d) => d.dataset === r.ranking)) : run.status === "failed" ? "failed" : "undefined",
                run.failure ?? e?.reason ?? run.official.find((o) => o.ranking === r.ranking)?.reason
              )
        )
        if (note === "" && e?.reason != null) note = e.reason
      }
    }
    for (const [name, metric] of shown) {
      const f = run.datasets.find((d) => d.dataset === name)
      const marks = board.marks?.find((m) => m.dataset === name && m.metric === metric)
      cells[`dataset.${name}`] = figureCell(
        f,
        [...(f?.value != null && ranked.has(run.id) && bestOf.get(name) === f.value ? (["best"] as const) : []), ...tiedIn(marks, run.id, columnName(columns.find((c) => c.key === `dataset.${name}`)!))],
        f?.value != null ? { kind: undefined } : missingOf(datasetMissing(run, f), run.failure)
      )
    }
    cells.note = { _tag: "text", text: note, marks: [] }
    // `≈` by the headline ranking, the one the rows are ordered by
    // the best run's own interval overlaps itself: the mark is for the others
    const own = headline !== undefined ? entriesOf.get(headline)?.get(run.id) : undefined
    const overlapsBest = ci !== undefined && own?.overlapsBest === true && own.rank !== 1
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
      "* late or corrected submission; \u2020 submitted after the deadline (listed, never ranked).",
      ...(board.runs.some((r) => r.flags.includes("zeroed")) ? [Footnotes.zeroed] : []),
      ...(hiddenPublic ? [] : [Footnotes.best]),
      // the bold's rules, each naming its columns when there are several (in column order)
      ...Footnotes.tied(used.tied, [...new Set(columns.flatMap((c) => ([...used.tied.values()].some((headers) => headers.includes(columnName(c))) ? [columnName(c)] : [])))]),
      ...Footnotes.missing(used.missing),
      ...(ci !== undefined ? [...Footnotes.intervals(ci, used), `Intervals' signature: ${ci.signature}`] : []),
      ...(rows.some((r) => Object.values(r.cells).some((c) => Table.fewPairsOf(c) !== undefined)) ? [Footnotes.fewPairs] : [])
    ]
  }
}

/**
 * The leaderboard in GitHub Markdown (the report's renderer).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard, Render } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard // leaderboard.json
 * const edition = Registry.get("sts2017")!
 *
 * const md = Render.markdown(board, edition)
 * ```
 * @since 0.1.0
 */
export const markdown = (board: Leaderboard, edition?: Registry.TaskEdition): string => Markdown.render(toTable(board, edition))

/**
 * The leaderboard as one self-contained HTML page (the report's renderer).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard, Render } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard // leaderboard.json
 * const edition = Registry.get("sts2017")!
 *
 * const page = Render.html(board, edition)
 * ```
 * @since 0.1.0
 */
export const html = (board: Leaderboard, edition?: Registry.TaskEdition): string => Html.render(toTable(board, edition))

/**
 * The renderer for an edition (its published number style).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard, Render } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard // leaderboard.json
 * const edition = Registry.get("sts2017")!
 *
 * const { md, html } = Render.renderer(edition).render(board)
 * ```
 * @since 0.1.0
 */
export const renderer = (edition?: Registry.TaskEdition): RendererShape => ({
  render: (board, given) => ({ md: markdown(board, given ?? edition), html: html(board, given ?? edition) })
})

/**
 * The renderer the watcher uses; by default the tables' renderer without an edition (r to 3
 * decimals); `ScoringAdapter.rendererLayer` styles it for the scorer's edition.
 *
 * @example
 * ```ts
 * import { Render, Watcher } from "@stseval/leaderboard"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // render with the edition's published style
 * const watch = Watcher.watch({ folder: "subs", out: "board", once: true }).pipe(Effect.provideService(Render.Renderer, Render.renderer(Registry.get("sts2017")!)))
 * ```
 * @since 0.1.0
 */
export const Renderer = Context.Reference<RendererShape>("@stseval/leaderboard/Renderer", { defaultValue: () => renderer() })
