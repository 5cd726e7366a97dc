/**
 * The leaderboard's pages (Markdown and HTML), laid out by the tables' one builder: `toTable`
 * reads the board as the tables' `Results` (nothing here ranks or marks) and `Layouts.build`
 * decides order, bullets, bold and footnotes as for the report. `Renderer` is an Effect
 * reference, styled for the edition by `ScoringAdapter.rendererLayer`.
 *
 * @since 0.1.0
 */
import { type Issue, Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import type * as Marks from "@stseval/scoring/Marks"
import { Footnotes, FromScoring, Html, Layouts, Markdown, Results } from "@stseval/tables"
import type { Table } from "@stseval/tables"
import { Context } from "effect"
import type { Leaderboard, LeaderboardRun, Ranking } from "./Leaderboard.js"

/**
 * A board's pages as a renderer gives them: the Markdown and the HTML, written side by side.
 *
 * @since 0.1.0
 */
export interface Rendered {
  readonly md: string
  readonly html: string
}

/**
 * A renderer; `edition` (the watcher's) gives the published number style.
 *
 * @since 0.1.0
 */
export interface RendererShape {
  readonly render: (board: Leaderboard, edition?: Registry.TaskEdition) => Rendered
  /**
   * The pages of a board outside the hidden phase are those of its public view (the renderer reads
   * `view` only in the hidden phase): the watcher then draws them once. Unset: both are drawn (a
   * custom renderer may show the view). @since 0.3.0
   */
  readonly sameForPublic?: boolean | undefined
}

const issueText = (i: Issue.Issue) => `${i.file}${i.line !== undefined ? `:${i.line}` : ""}: ${i.message}`

/** A metric as people read it: its label (`Spearman`). */
const labelOf = (metric: string) => Metrics.get(metric)?.label ?? metric

/** What the board shows of a ranking and of a dataset, and where each figure is in the board's `Results`. */
const shapeOf = (board: Leaderboard) => {
  const hiddenPublic = board.hidden && board.view === "public"
  const rankings = hiddenPublic ? [] : board.rankings
  // per-dataset columns (STS tracks, SemRel languages), in the edition's order: each dataset's
  // figure by the metric its ranking orders by
  const datasets = hiddenPublic ? [] : [...new Map(board.runs.flatMap((r) => r.datasets.map((d) => [d.dataset, d.metric] as const))).entries()]
  const isDataset = new Set(datasets.map(([name]) => name))
  // a dataset ranked on its own (SemRel's languages) already has its figure beside its rank, in its
  // ranking's group: a second column of the same figure only widens the page
  const ownRanking = new Set(rankings.map((r) => `${r.ranking}\u0000${r.metric}`))
  const shown = datasets.filter(([name, metric]) => !ownRanking.has(`${name}\u0000${metric}`))
  // a ranking of one dataset (SemRel's languages) is that dataset's figure, missing as the dataset is
  const figureOfRanking = (r: Ranking): Layouts.Source =>
    isDataset.has(r.ranking) ? { _tag: "metric", dataset: r.ranking, metric: r.metric } : { _tag: "aggregate", name: r.ranking }
  // the marks of a ranking's figure: its official figure over several datasets, else its one dataset's
  const marksOfRanking = (r: Ranking) => {
    const own = (board.marks ?? []).filter((m) => m.ranking === r.ranking)
    return own.find((x) => x.dataset === undefined) ?? (own.length === 1 ? own[0] : undefined)
  }
  return { hiddenPublic, rankings, datasets, shown, figureOfRanking, marksOfRanking }
}

/**
 * The board as the tables' `Results`: its runs read by the tables' one converter
 * (`FromScoring.convert` with `FromScoring.boardRules`, as the report reads scored runs with
 * `reportRules`), its rankings as `Leaderboard.build` made them (nothing ranks here), its marks
 * and intervals as the board carries them.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { BoardPage, Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard // leaderboard.json
 * const results = BoardPage.toResults(board, Registry.get("sts2017")!)
 * ```
 * @since 0.5.0
 */
export const toResults = (board: Leaderboard, edition: Registry.TaskEdition | undefined): Results.Results => {
  const { hiddenPublic, rankings, datasets, shown, figureOfRanking, marksOfRanking } = shapeOf(board)
  const keyOf = (r: Ranking) => Results.figureKey(figureOfRanking(r) as Parameters<typeof Results.figureKey>[0])
  const marks = Results.marksByKey((board.marks ?? []) as ReadonlyArray<Marks.FigureMarks>)
  for (const r of rankings) {
    const m = marksOfRanking(r)
    if (m !== undefined) marks[keyOf(r)] = m as Marks.FigureMarks
    else delete marks[keyOf(r)]
  }
  // each run as scoring's JSON of it: a dataset column the run has no figure for is one it did not submit
  const runJson = (run: LeaderboardRun): FromScoring.RunJson => ({
    run,
    status: run.status,
    failure: run.failure,
    flags: run.flags,
    official: run.official,
    datasets: Object.fromEntries(
      datasets.map(([name, metric]) => {
        const f = run.datasets.find((d) => d.dataset === name)
        return [name, f === undefined ? { status: "missing" as const, figures: {} } : { status: f.status, figures: { [metric]: f.ci !== undefined ? { value: f.value, ci: f.ci } : f.value } }]
      })
    )
  })
  const { runs, rankings: ranked } = FromScoring.convert(
    {
      runs: board.runs.map(runJson),
      rankings: rankings.map((r) => ({ ...r, figures: [keyOf(r)] })),
      metrics: new Map(datasets)
    },
    FromScoring.boardRules
  )
  // the Note column: the run's first error, else why a ranking lists it without a rank
  const notes = new Map<string, string>()
  for (const r of ranked) for (const e of r.entries) if (e.reason !== undefined && !notes.has(e.id)) notes.set(e.id, e.reason)
  return {
    edition: board.task,
    style: edition?.published.style,
    datasets: shown.map(([name, metric]) => ({ name, header: Registry.datasetHeader(edition, name), metric })),
    runs: runs.map((row, i) => {
      const run = board.runs[i]
      const note = run.errors[0] !== undefined ? issueText(run.errors[0]) : (notes.get(run.id) ?? "")
      return { ...row, texts: { status: run.status === "scored" ? (hiddenPublic ? "valid" : "scored") : "failed", note } }
    }),
    // the headline ranking also owns the datasets' figures: their bullets go to the runs it ranks
    rankings: ranked.map((k, i) => (i === 0 ? { ...k, figures: [...k.figures, ...shown.map(([name, metric]) => Results.figureKey({ _tag: "metric", dataset: name, metric }))] } : k)),
    marks,
    ...(board.intervals !== undefined && !hiddenPublic ? { intervals: board.intervals } : {})
  }
}

/**
 * The board's layout: a row per run in the headline ranking's order, a rank and figure column per
 * ranking (bold and bullets from the board's marks), each dataset's figure, and a note column (why
 * a run is not ranked, or its first error). The hidden phase's public view: status and errors only.
 */
const boardLayout = (board: Leaderboard, edition: Registry.TaskEdition | undefined): Layouts.LayoutSpec => {
  const { hiddenPublic, rankings, shown, figureOfRanking, marksOfRanking } = shapeOf(board)
  const marked = new Set((board.marks ?? []).flatMap((m) => (m.test !== undefined ? [m.key] : [])))
  const style = { style: edition?.published.style }
  const columns: Array<Layouts.ColumnSpec> = [
    { key: "run", header: "Run", source: { _tag: "label" } },
    { key: "team", header: "Team", source: { _tag: "team" } },
    { key: "primary", header: "Primary", source: { _tag: "primary" }, align: "center" }
  ]
  for (const r of rankings) {
    const figure = figureOfRanking(r)
    const header = labelOf(r.metric)
    columns.push({ key: `${r.ranking}.rank`, header: "Rank", source: { _tag: "rank", ranking: r.ranking }, group: r.ranking })
    // with intervals (`--ci`), the rank range after each rank, as `report --ci` prints it
    if (board.intervals !== undefined) {
      const { key, header: rangeHeader, description } = Layouts.rankRangeColumn
      columns.push({ key: `${r.ranking}.${key}`, header: rangeHeader, source: { _tag: "rankInterval", ranking: r.ranking }, group: r.ranking, description })
    }
    columns.push({ key: `${r.ranking}.value`, header, name: `${r.ranking} (${header})`, source: figure, group: r.ranking, number: Results.styleOf(style, r.metric), markBest: true, markTied: marksOfRanking(r)?.test !== undefined })
  }
  for (const [name, metric] of shown) {
    // headed by the edition's display name (`ar-ar`, not `track1.ar-ar`), as the report heads them
    const source = { _tag: "metric", dataset: name, metric } as const
    columns.push({ key: `dataset.${name}`, header: Registry.datasetHeader(edition, name), source, group: `datasets (${labelOf(metric)})`, number: Results.styleOf(style, metric), markBest: true, markTied: marked.has(Results.figureKey(source)) })
  }
  columns.push({ key: "status", header: "Status", source: { _tag: "text", name: "status" }, align: "left" }, { key: "note", header: "Note", source: { _tag: "text", name: "note" }, align: "left", prose: true })
  return {
    id: `leaderboard-${board.task}`,
    title: `Leaderboard: ${board.task}${hiddenPublic ? " (hidden phase: validation only)" : ""}`,
    caption: `${board.counts.runs} runs: ${board.counts.scored} scored, ${board.counts.failed} failed${hiddenPublic ? "" : `, ${board.counts.ranked} ranked`}. Run limit ${board.runLimit} per team${board.deadline !== null ? `; deadline ${board.deadline}` : ""}.`,
    label: `tab:leaderboard-${board.task}`,
    wide: false,
    columns,
    sortBy: rankings[0] !== undefined ? `${rankings[0].ranking}.value` : "run",
    runs: board.primaryOnly ? "primary" : "all",
    notes: [
      "* late or corrected submission; \u2020 submitted after the deadline (listed, never ranked).",
      ...(board.runs.some((r) => r.flags.includes("zeroed")) ? [Footnotes.zeroed] : []),
      ...(hiddenPublic ? [] : [Footnotes.best])
    ],
    explained: ["best", "late", "postDeadline", "zeroed"],
    intervalsSignature: true
  }
}

/**
 * The leaderboard as one report `Table`, laid out by the tables' `Layouts.build` (the report's
 * builder: its order, bullets, bold and footnotes) from the board's rankings, marks and intervals.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { BoardPage, Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard // leaderboard.json
 * const edition = Registry.get("sts2017")!
 *
 * // the rows in the board's ranking, bold from its marks
 * const rows = BoardPage.toTable(board, edition).sections[0].rows.map((r) => r.id)
 * ```
 * @since 0.1.0
 */
export const toTable = (board: Leaderboard, edition?: Registry.TaskEdition): Table.Table =>
  Layouts.build(toResults(board, edition), boardLayout(board, edition), { rankIntervals: false, matrix: false })

/**
 * The leaderboard in GitHub Markdown (the report's renderer).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { BoardPage, Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard // leaderboard.json
 * const edition = Registry.get("sts2017")!
 *
 * const md = BoardPage.markdown(board, edition)
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
 * import { BoardPage, Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard // leaderboard.json
 * const edition = Registry.get("sts2017")!
 *
 * const page = BoardPage.html(board, edition)
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
 * import { BoardPage, Leaderboard } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard // leaderboard.json
 * const edition = Registry.get("sts2017")!
 *
 * const { md, html } = BoardPage.renderer(edition).render(board)
 * ```
 * @since 0.1.0
 */
export const renderer = (edition?: Registry.TaskEdition): RendererShape => ({
  render: (board, given) => ({ md: markdown(board, given ?? edition), html: html(board, given ?? edition) }),
  // (`shapeOf` reads the view only with `hidden`)
  sameForPublic: true
})

/**
 * The renderer the watcher uses; by default the tables' renderer without an edition (r to 3
 * decimals); `ScoringAdapter.rendererLayer` styles it for the scorer's edition.
 *
 * @example
 * ```ts
 * import { BoardPage, Watcher } from "@stseval/leaderboard"
 * import { Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // render with the edition's published style
 * const watch = Watcher.watch({ folder: "subs", out: "board", once: true }).pipe(Effect.provideService(BoardPage.Renderer, BoardPage.renderer(Registry.get("sts2017")!)))
 * ```
 * @since 0.1.0
 */
export const Renderer = Context.Reference<RendererShape>("@stseval/leaderboard/Renderer", { defaultValue: () => renderer() })
