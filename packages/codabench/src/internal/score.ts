/**
 * The one place this package calls @stseval/scoring, and only through its one way in,
 * `Engine.score`. The figures are read from `ResultJson.resultsToJson` of the result — the very document
 * `stseval score --json` prints — so a `scores.json` number is that document's number (scaled for
 * the published style), never a second reading of the engine's values.
 *
 * @internal
 */
import type { Gold, Issue, Registry } from "@stseval/formats"
import { Engine, ResultJson } from "@stseval/scoring"
import type { ResultSchema } from "@stseval/scoring"
import type { Isolation, ScoredRun } from "@stseval/scoring"
import { Effect } from "effect"
import type { FileSystem, Path } from "effect"
import type { Part } from "../DetailedResults.js"
import type { Figure, FigureRef } from "../Scores.js"

/** What this package needs to know about a scored run. */
export interface Run {
  readonly status: "scored" | "failed"
  readonly failure: string | undefined
  readonly parts: ReadonlyArray<Part>
  readonly figure: (ref: FigureRef) => Figure
  readonly errors: ReadonlyArray<Issue.Issue>
  readonly warnings: ReadonlyArray<Issue.Issue>
  readonly infos: ReadonlyArray<Issue.Issue>
}

/** One `Engine.score` call: the gold's issues, the signature, and the runs found at the path given. */
export interface Scored {
  /** the gold's issues (missing files, parse problems): errors there are the organiser's problem */
  readonly goldIssues: ReadonlyArray<Issue.Issue>
  /** the result's signature, one line (`edition@hash|gold:hash|agg:rule|engine@version`) */
  readonly signature: string
  /** issues about the input as a whole (entries that are not runs) */
  readonly issues: ReadonlyArray<Issue.Issue>
  readonly runs: ReadonlyArray<Run>
  /** the input could not be read at all (a run that is not a file, folder or zip) */
  readonly unreadable: string | undefined
}

/** A JSON figure: a number, null, or (with intervals) `{ value, ci }`. */
type JsonFigure = number | null | { readonly value: number | null } | undefined

const figureOf = (figure: JsonFigure, reasons: Readonly<Record<string, string>> | undefined, metric: string, missing: string): Figure => {
  const value = typeof figure === "object" && figure !== null ? figure.value : figure
  return typeof value === "number" ? { _tag: "value", value } : { _tag: "none", reason: reasons?.[metric] ?? missing }
}

/** A column's figure, read from the run's `stseval score --json` object. */
const figureFromJson = (json: ResultSchema.ScoredRunJson) => (ref: FigureRef): Figure => {
  switch (ref._tag) {
    case "dataset": {
      const d = json.datasets[ref.dataset]
      return figureOf(d?.figures[ref.metric], d?.undefined, ref.metric, d?.reason ?? `no dataset ${ref.dataset}`)
    }
    case "official": {
      const o = json.official.find((x) => x.ranking === ref.ranking)
      return figureOf(o?.value, o?.undefined, "value", `no ${ref.ranking} figure`)
    }
    case "aggregate": {
      const a = json.aggregates[ref.ranking]?.[ref.name]
      return figureOf(a?.value, a?.undefined, "value", `no ${ref.name} aggregate`)
    }
    case "computed":
      // counted by Scores.fromRun from the other columns
      return { _tag: "none", reason: "counted from the other columns" }
  }
}

/** The datasets of a scored run, with the aligned scores behind them (plots) or a labels dataset's confusion matrix. */
const partsOf = (scored: ScoredRun.ScoredRun): ReadonlyArray<Part> =>
  scored.datasets.map((d) => ({
    name: d.dataset,
    status: d.status,
    reason: d.reason,
    file: d.file,
    pairs: d.pairs,
    linesScored: d.linesScored,
    aligned: d.status === "scored" && d.aligned?.kind === "scores" ? { run: d.aligned.run, gold: d.aligned.gold } : undefined,
    confusion: d.status === "scored" && d.labels !== undefined ? { labels: d.labels.labels, counts: d.labels.confusion } : undefined
  }))

/**
 * `stseval score --task <edition> --gold <gold> [<runPath>]`: the runs at `runPath` (a file, a run
 * folder, a zip, or a folder of runs, as `stseval score` reads its arguments) scored against the
 * gold, with the result's signature; without `runPath`, just the gold's check. Never fails on the
 * input: a path that cannot be read is `unreadable`. Fails with a message when the gold is not
 * there.
 */
export const score = (
  edition: Registry.TaskEdition,
  goldPath: string,
  runPath?: string,
  isolation?: Isolation.Options,
  /** a gold already built (a sealed phase's shape, `Sealed.restore`), used instead of reading `goldPath` */
  goldData?: Gold.Gold
): Effect.Effect<Scored, string, FileSystem.FileSystem | Path.Path> =>
  Engine.score({ task: edition, gold: goldPath, goldData, runs: runPath === undefined ? [] : [runPath], isolation }).pipe(
    Effect.map((results): Scored => {
      const json = ResultJson.resultsToJson({ ...results, ranked: undefined })
      return {
        goldIssues: results.gold.issues,
        signature: results.signature.text,
        issues: results.issues,
        runs: results.runs.map((scored, i) => ({
          status: scored.status,
          failure: scored.failure,
          parts: partsOf(scored),
          figure: figureFromJson(json.runs[i]),
          errors: scored.errors,
          warnings: scored.warnings,
          infos: scored.infos
        })),
        unreadable: undefined
      }
    }),
    Effect.catchTag("InputError", (e) =>
      // Only the run path can be unreadable here: the gold's existence is checked before.
      Engine.score({ task: edition, gold: goldPath, goldData }).pipe(
        Effect.map((results): Scored => ({ goldIssues: results.gold.issues, signature: results.signature.text, issues: [], runs: [], unreadable: e.reason }))
      )
    ),
    Effect.mapError((e) => e.message)
  )
