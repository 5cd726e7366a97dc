/**
 * The one place this package calls @stseval/scoring. Everything else works on the small view
 * below, so a change of the scoring API is a change of this file alone.
 *
 * @internal
 */
import { Issue, Submissions } from "@stseval/formats"
import type { Registry } from "@stseval/formats"
import { Engine } from "@stseval/scoring"
import type { ScoredRun, Validation } from "@stseval/scoring"
import { Effect } from "effect"
import type { FileSystem, Path } from "effect"
import type { Part } from "../DetailedResults.js"
import type { Figure, FigureRef } from "../Scores.js"

/** An edition with its gold, loaded once. */
export interface Task {
  readonly edition: Registry.TaskEdition
  /** the gold's issues (missing files, parse problems) */
  readonly goldIssues: ReadonlyArray<Issue.Issue>
  readonly context: Engine.Context
}

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

/** Load an edition's gold (never fails: a gold problem is in `goldIssues`). */
export const loadTask = (edition: Registry.TaskEdition, goldPath: string): Effect.Effect<Task, never, FileSystem.FileSystem | Path.Path> =>
  Engine.loadContext({ task: edition, gold: goldPath }).pipe(
    // `task` is an edition object, so resolving it cannot fail.
    Effect.orDie,
    Effect.map((context) => ({ edition, goldIssues: context.gold.issues, context }))
  )

type Metric = ScoredRun.DatasetScore["pearson"]

const figureOfMetric = (m: Metric | undefined, missing: string): Figure =>
  m === undefined
    ? { _tag: "none", reason: missing }
    : m._tag === "Defined" && Number.isFinite(m.value)
      ? { _tag: "value", value: m.value }
      : { _tag: "none", reason: m._tag === "Undefined" ? m.reason : "not a finite number" }

const figureOf = (scored: ScoredRun.ScoredRun) => (ref: FigureRef): Figure => {
  switch (ref._tag) {
    case "subtask": {
      if (ref.subtask === "entailment") {
        return ref.metric === "accuracy" ? figureOfMetric(scored.entailment?.accuracy, "no entailment figures") : { _tag: "none", reason: `entailment has no ${ref.metric}` }
      }
      const r = scored.relatedness
      const m = ref.metric === "pearson" ? r?.pearson : ref.metric === "spearman" ? r?.spearman : ref.metric === "mse" ? r?.mse : undefined
      return figureOfMetric(m, `relatedness has no ${ref.metric}`)
    }
    case "dataset": {
      const d = scored.datasets.find((x) => x.dataset === ref.dataset)
      return figureOfMetric(ref.metric === "pearson" ? d?.pearson : d?.spearman, `no dataset ${ref.dataset}`)
    }
    case "aggregate":
      return figureOfMetric(scored.aggregate[ref.name]?.value, `no ${ref.name} aggregate`)
  }
}

const partsOf = (scored: ScoredRun.ScoredRun, validation: Validation.RunValidation | undefined): ReadonlyArray<Part> => {
  if (scored.kind === "sick") {
    const sick = validation?.sick
    const subtask = (
      name: string,
      s: { readonly status: "scored" | "not-evaluated"; readonly reason: string | undefined; readonly pairs: number } | undefined,
      extra: Pick<Part, "aligned" | "confusion">
    ): Part => ({
      name,
      status: s?.status === "scored" ? "scored" : "not-scored",
      reason: s?.reason,
      file: sick?.file,
      pairs: s?.pairs ?? 0,
      linesScored: undefined,
      ...extra
    })
    const e = scored.entailment
    return [
      subtask("relatedness", scored.relatedness, {
        aligned: sick !== undefined && sick.relatedness.status === "scored" ? { run: sick.relatedness.run, gold: sick.relatedness.gold } : undefined,
        confusion: undefined
      }),
      subtask("entailment", e, { aligned: undefined, confusion: e !== undefined && e.status === "scored" ? { labels: e.labels, counts: e.confusion } : undefined })
    ]
  }
  return scored.datasets.map((d) => {
    const check = validation?.datasets.find((c) => c.dataset === d.dataset)
    return {
      name: d.dataset,
      status: d.status,
      reason: d.reason,
      file: d.file,
      pairs: d.pairs,
      linesScored: d.linesScored,
      aligned: check !== undefined && check.status === "scored" ? { run: check.run, gold: check.gold } : undefined,
      confusion: undefined
    }
  })
}

/**
 * Load and score one run (a file, a folder or a zip) exactly as `stseval score` does. Never fails:
 * a run that cannot be read is a failed run with its reason.
 */
export const scoreRun = (task: Task, runPath: string): Effect.Effect<Run, never, FileSystem.FileSystem | Path.Path> =>
  Submissions.loadRun(runPath, task.edition).pipe(
    Effect.map((submission) => Engine.validateAndScore(task.context, submission)),
    Effect.catch(() => Engine.scoreRunPath(task.context, runPath).pipe(Effect.map((scored) => ({ scored, validation: undefined })))),
    Effect.map(({ scored, validation }) => ({
      status: scored.status,
      failure: scored.failure,
      parts: partsOf(scored, validation),
      figure: figureOf(scored),
      errors: scored.errors,
      warnings: scored.warnings,
      infos: scored.infos
    }))
  )

/** True when the gold has an error (the organiser's problem, not the participant's). */
export const goldHasErrors = (task: Task): boolean => Issue.hasErrors(task.goldIssues)
