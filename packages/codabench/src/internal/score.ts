/**
 * The one place this package calls @stseval/scoring, and only through its one way in,
 * `Engine.score`. The figures are read from `Json.resultsToJson` of the result — the very document
 * `stseval score --json` prints — so a `scores.json` number is that document's number (scaled for
 * the published style), never a second reading of the engine's values.
 *
 * @internal
 */
import type { Issue, Registry } from "@stseval/formats"
import { Engine, Json } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"
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
const figureFromJson = (json: Json.ScoredRunJson) => (ref: FigureRef): Figure => {
  switch (ref._tag) {
    case "subtask": {
      if (ref.subtask === "entailment") {
        const e = json.entailment
        return ref.metric === "accuracy" ? figureOf(e?.accuracy, e?.undefined, "accuracy", e?.reason ?? "no entailment figures") : { _tag: "none", reason: `entailment has no ${ref.metric}` }
      }
      const r = json.relatedness
      if (ref.metric === "accuracy") return { _tag: "none", reason: "relatedness has no accuracy" }
      return figureOf(r?.[ref.metric], r?.undefined, ref.metric, r?.reason ?? "no relatedness figures")
    }
    case "dataset": {
      const d = json.datasets?.[ref.dataset]
      return figureOf(d?.[ref.metric], d?.undefined, ref.metric, d?.reason ?? `no dataset ${ref.dataset}`)
    }
    case "aggregate": {
      const a = json.aggregate?.[ref.name]
      return figureOf(a?.value, a?.undefined, "value", `no ${ref.name} aggregate`)
    }
  }
}

/** The datasets (STS) or subtasks (SICK) of a scored run, with the aligned scores behind them (plots). */
const partsOf = (scored: ScoredRun.ScoredRun): ReadonlyArray<Part> => {
  if (scored.kind === "sick") {
    const r = scored.relatedness
    const e = scored.entailment
    const base = { file: scored.path, linesScored: undefined }
    return [
      {
        ...base,
        name: "relatedness",
        status: r?.status === "scored" ? "scored" : "not-scored",
        reason: r?.reason,
        pairs: r?.pairs ?? 0,
        aligned: r?.status === "scored" && r.aligned !== undefined ? { run: r.aligned.run, gold: r.aligned.gold } : undefined,
        confusion: undefined
      },
      {
        ...base,
        name: "entailment",
        status: e?.status === "scored" ? "scored" : "not-scored",
        reason: e?.reason,
        pairs: e?.pairs ?? 0,
        aligned: undefined,
        confusion: e !== undefined && e.status === "scored" ? { labels: e.labels, counts: e.confusion } : undefined
      }
    ]
  }
  return scored.datasets.map((d) => ({
    name: d.dataset,
    status: d.status,
    reason: d.reason,
    file: d.file,
    pairs: d.pairs,
    linesScored: d.linesScored,
    aligned: d.status === "scored" && d.aligned !== undefined ? { run: d.aligned.run, gold: d.aligned.gold } : undefined,
    confusion: undefined
  }))
}

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
  runPath?: string
): Effect.Effect<Scored, string, FileSystem.FileSystem | Path.Path> =>
  Engine.score({ task: edition, gold: goldPath, runs: runPath === undefined ? [] : [runPath] }).pipe(
    Effect.map((results): Scored => {
      const json = Json.resultsToJson({ ...results, ranked: undefined })
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
      Engine.score({ task: edition, gold: goldPath }).pipe(
        Effect.map((results): Scored => ({ goldIssues: results.gold.issues, signature: results.signature.text, issues: [], runs: [], unreadable: e.reason }))
      )
    ),
    Effect.mapError((e) => e.message)
  )
