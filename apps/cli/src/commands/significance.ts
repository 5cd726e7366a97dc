/**
 * `stseval significance`: rank the runs of a submissions folder and say which are significantly
 * different: the runs not significantly different from the best (the papers' bold), or every pair
 * with groups of mutually indistinguishable runs, or every run against one run.
 */
import { cpuBound } from "@stseval/app/signals"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import { Aligned, Style } from "@stseval/scoring"
import type { Compare } from "@stseval/significance"
import * as CompareJson from "../internal/CompareJson.js"
import { ExitCode, UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Lazy from "../internal/Lazy.js"
import * as TextView from "../internal/TextView.js"
import * as Colour from "../internal/Colour.js"
import * as Task from "../internal/Task.js"
import * as TextTable from "../internal/TextTable.js"
import { dataset, fmtP, fmtR, metric, metricOf, progressReporter, seed, test } from "../internal/CompareFlags.js"

const against = Flag.String("against").pipe(
  Flags.defaulting("best: every run against the top run; all: every pair (with groups); or a run id (e.g. ECNU/run1)", "best")
)

// the marks' rule (`Marks.defaults`): the bold of significance is report's, rank's and the leaderboard's
const correction = Flag.Literals("correction", ["none", "holm", "bonferroni"]).pipe(
  Flags.defaulting("Multiple-comparison correction over all comparisons made (the marks' rule, as report)", Lazy.ruleDefaults.correction)
)

const resamples = Flags.atLeast("resamples", 1).pipe(
  Flags.defaulting("Resamples for bootstrap / permutation (the marks' rule, as report; the bootstrap's p by the normal approximation is not floored by them)", Lazy.ruleDefaults.resamples)
)

const records = Flag.Boolean("records").pipe(
  Flag.withDescription(
    "With --against all --json: every pair as a full record in `comparisons` (default: the compact `matrix`, one row of p-values, statistics and intervals per run)"
  ),
  Flag.withDefault(false)
)

const alpha = Flags.alpha.pipe(Flags.defaulting("Significance level, strictly between 0 and 1", 0.05))

const folders = Argument.String("folder").pipe(
  Argument.withDescription("Submissions folder(s) of runs (or runs)"),
  Argument.atLeast(1)
)

/** positions[run] = the run's place in `ranking` (a list of run indices, best first). */
const positionsOf = (ranking: ReadonlyArray<number>): Array<number> => {
  const positions = new Array<number>(ranking.length)
  ranking.forEach((run, i) => (positions[run] = i))
  return positions
}

/** One ranking's test as text: the runs best first with their p against the reference, and what was left out. */
const textOf = (
  name: string,
  t: {
    readonly edition: Registry.TaskEdition
    readonly metric: string
    readonly rule: string
    readonly aggregate: string | undefined
    readonly reference: "best" | "all" | number
    readonly ids: ReadonlyArray<string>
    readonly result: Compare.ManyResult
    readonly excluded: ReadonlyArray<{ readonly run: string; readonly reason: string }>
  },
  c: Colour.Palette
): string => {
  const { result, ids, reference } = t
  const lines: Array<string> = [`${name} — ${t.rule}${t.aggregate !== undefined ? `; on ${t.aggregate}` : ""}`]
  // p of each run against the reference (best or the given run)
  const refRun = reference === "all" || reference === "best" ? result.ranking[0] : reference
  // the reference's comparison with each other run (a search per run was quadratic in the pairs)
  const { a, b, adjustedP } = result.figures
  const withRef = new Map<number, number>()
  for (let p = 0; p < a.length; p++) {
    if (a[p] === refRun) withRef.set(b[p], p)
    else if (b[p] === refRun) withRef.set(a[p], p)
  }
  const pAgainstRef = (run: number): number | undefined => {
    const p = withRef.get(run)
    return p === undefined ? undefined : adjustedP?.[p]
  }
  lines.push(
    TextTable.render(
      [
        { header: "#", align: "right" },
        { header: "run" },
        { header: Metrics.get(t.metric)?.symbol ?? t.metric, align: "right" },
        { header: `p vs ${reference === "all" || reference === "best" ? "best" : ids[refRun]}`, align: "right" },
        ...(result.groups !== undefined ? [{ header: "group", align: "right" as const }, { header: "rank range" }] : [])
      ],
      result.ranking.map((run, position) => {
        const id = result.best.includes(run) ? c.bold(ids[run]) : ids[run]
        return [
          String(position + 1),
          id,
          fmtR(result.estimates[run], Style.forMetric(t.edition, t.metric)),
          run === refRun ? "-" : fmtP(pAgainstRef(run)),
          ...(result.groups !== undefined && result.rankRanges !== undefined
            ? [String(result.groups[position] + 1), `${result.rankRanges[position].lo + 1}-${result.rankRanges[position].hi + 1}`]
            : [])
        ]
      }),
      c
    )
  )
  if (result.best.length > 0) lines.push(`not significantly different from the best (${t.rule}): ${result.best.map((r) => ids[r]).join(", ")}`)
  if (result.signature !== undefined) lines.push(`signature: ${result.signature}`)
  for (const e of t.excluded) lines.push(c.yellow(`left out: ${e.run}: ${e.reason}`))
  return lines.join("\n") + "\n"
}

export const significance = Command.make(
  "significance",
  {
    task: Flags.task,
    gold: Flags.gold,
    dataRoot: Flags.dataRoot,
    json: Flags.json,
    allRuns: Flags.allRuns,
    against,
    records,
    test,
    correction,
    alpha,
    resamples,
    seed,
    metric,
    dataset,
    ...Flags.budget,
    folders
  },
  Effect.fn(function*({ task, gold, dataRoot, json, allRuns, against, records, test, correction, alpha, resamples, seed, metric, dataset, timeBudget, memoryBudget, folders }) {
    const edition = yield* Task.edition(task)
    const c = yield* Colour.Colour
    const { Compare, Datasets, TestResult } = yield* Lazy.significance
    const Marks = yield* Lazy.marks
    const only = Option.getOrUndefined(dataset)
    if (only !== undefined && !edition.datasets.some((d) => d.name === only)) {
      return yield* new UsageError({ message: `--dataset: ${edition.id} has no dataset ${only} (${edition.datasets.map((d) => d.name).join(", ")})` })
    }
    // the one ranked result: the runs each ranking ranks (never a post-deadline, failed or, without
    // --all-runs, non-primary run) are the runs tested, best first as rank lists them
    const scored = yield* Task.score(edition, { gold, dataRoot, timeBudget, memoryBudget }, { runs: folders, primaryOnly: !allRuns })
    yield* Task.releaseScorers
    const goldPath = scored.goldPath ?? ""
    const byId = new Map(scored.runs.map((r) => [r.meta.id, r]))

    // Where to test: every ranking (each dataset of a ranking per dataset), or the ranking of
    // --dataset restricted to that dataset
    const scopes: ReadonlyArray<Aligned.Scope> =
      only === undefined
        ? Aligned.scopes(edition)
        : Aligned.scopes(edition).flatMap((s) => {
          if (s.only === only) return [s]
          return s.only === undefined && Registry.datasetsOf(edition, s.ranking).some((d) => d.name === only) ? [{ ...s, only }] : []
        })
    const skipped: Array<{ ranking: string; reason: string }> = []
    const tests: Array<CompareJson.SignificanceResults["tests"][number]> = []
    // each ranking's text, and whether it says why nothing was tested (stderr)
    const texts: Array<{ readonly text: string; readonly error: boolean }> = []
    for (const scope of scopes) {
      const compared = metricOf(metric, scope.ranking, edition)
      if (Metrics.get(scope.ranking.metric)?.kind === "labels" && Option.isNone(metric)) {
        skipped.push({ ranking: scope.name, reason: `ranked by ${scope.ranking.metric}, labels: compare two runs with \`stseval compare\` (McNemar's test)` })
        continue
      }
      const ranked = scored.ranked.rankings.find((r) => r.ranking === scope.name)
      const excluded: Array<{ run: string; reason: string }> = []
      const candidates = (ranked?.entries ?? []).flatMap((e) => {
        const run = byId.get(e.meta.id)
        if (e.rank === undefined || run === undefined) {
          excluded.push({ run: e.meta.id, reason: `not ranked: ${e.reason ?? "no figure"}` })
          return []
        }
        return [run]
      })
      // runs that cannot be compared on every dataset considered are left out (with the reason):
      // all runs must be scored on the same pairs
      const { kept, left, aligned } = Aligned.comparable(edition, candidates, (r) => r, { ranking: scope.ranking, metric: compared, only: scope.only })
      for (const { item: r, skipped: own } of left) {
        // a reason of one run's own datasets names that run, which the line already does
        const unnamed = (reason: string) => (reason.startsWith(`${r.meta.id}: `) ? reason.slice(r.meta.id.length + 2) : reason)
        excluded.push({ run: r.meta.id, reason: own.map((x) => `${x.dataset}: ${unnamed(x.reason)}`).join("; ") || "nothing scored" })
      }
      const graded = aligned.datasets.flatMap((d) => (d.kind === "scores" ? [d] : []))
      const multi = graded.length > 1
      const how = Aligned.aggregateOf(scope.ranking)
      // the one rule (`Compare.testFor`), as report's bold
      const chosen = Option.getOrElse(test, () => Compare.testFor(compared, graded.length))
      const base = {
        ranking: scope.name,
        test: chosen,
        metric: compared,
        ...(multi ? { aggregate: how } : {}),
        datasets: graded.map((d) => d.name)
      }
      const fail = (error: string) => {
        tests.push({ ...base, error, runs: [], comparisons: [], excluded })
        const leftOut = excluded.map((e) => c.yellow(`left out: ${e.run}: ${e.reason}`))
        texts.push({ text: [c.red(`${scope.name}: nothing to test: ${error}`), ...leftOut].join("\n") + "\n", error: true })
      }
      if (kept.length < 2 || graded.length === 0) {
        fail(kept.length < 2 ? `fewer than two comparable runs (${kept.length})` : aligned.skipped.map((x) => `${x.dataset}: ${x.reason}`).join("; "))
        continue
      }
      const ids = kept.map((r) => r.meta.id)
      let reference: "best" | "all" | number
      if (against === "best" || against === "all") reference = against
      else {
        reference = ids.indexOf(against)
        if (reference < 0) {
          fail(`--against: ${against} is not among the runs this ranking ranks (${ids.join(", ")})`)
          continue
        }
      }
      if (multi && chosen !== "bootstrap" && chosen !== "permutation") {
        return yield* new UsageError({
          message: `--test ${chosen} compares one correlation; for ${edition.id}'s ${scope.name} aggregate use bootstrap or permutation, or pick one dataset with --dataset`
        })
      }
      const j = Datasets.join(graded, how)
      if (TestResult.isInvalid(j)) return yield* new UsageError({ message: j.message })
      if (chosen === "bootstrap" || chosen === "permutation") {
        const tooMany = Task.checkResamples("--resamples", resamples, j.runs.length * (graded.length + 1))
        if (tooMany !== undefined) return yield* tooMany
      }
      // a long computation on this thread: Ctrl-C and SIGTERM end it at once (@stseval/app/signals)
      const result = yield* cpuBound(() => Compare.many(j.gold, j.runs, {
        ...j,
        test: chosen,
        against: reference,
        correction,
        alpha,
        resamples,
        seed,
        bootstrapP: Marks.defaults.bootstrapP,
        metric: compared,
        progress: progressReporter(json)
      }))
      if (TestResult.isInvalid(result)) {
        fail(result.message)
        continue
      }
      const resampling = chosen === "bootstrap" || chosen === "permutation"
      const rule = Marks.describe({
        test: chosen,
        ...(multi ? { aggregate: how } : {}),
        correction,
        alpha,
        ...(resampling ? { resamples, seed, pMethod: chosen === "bootstrap" ? Marks.defaults.bootstrapP : "shift" } : {})
      })
      tests.push({
        ...base,
        ...(result.signature !== undefined ? { signature: result.signature } : {}),
        ...(resampling ? { resamples } : {}),
        rule,
        runs: result.ranking.map((run, position) =>
          CompareJson.rankingEntry(kept[run], position + 1, result.estimates[run], result.best.includes(run), {
            // 1-based, like position and rankRange (and the text table)
            ...(result.groups !== undefined ? { group: result.groups[position] + 1 } : {}),
            ...(result.rankRanges !== undefined ? { rankRange: [result.rankRanges[position].lo + 1, result.rankRanges[position].hi + 1] as const } : {})
          })
        ),
        // every pair of --against all compactly, unless asked for records
        ...(reference === "all" && !records
          ? {
            comparisons: [],
            matrix: CompareJson.significanceMatrix(result.figures, positionsOf(result.ranking), kept.length, correction)
          }
          : { comparisons: result.comparisons.map((c) => CompareJson.significanceComparison(c, ids)) }),
        excluded
      })
      if (!json) {
        texts.push({
          error: false,
          text: textOf(scope.name, { edition, metric: compared, rule, aggregate: multi ? `the ${how} aggregate of ${graded.length} datasets` : undefined, reference, ids, result, excluded }, c)
        })
      }
    }
    const failed = tests.filter((t) => t.error !== undefined)
    if (json) {
      const document: CompareJson.SignificanceResults = {
        ...CompareJson.head(CompareJson.SIGNIFICANCE_FORMAT, edition.id, goldPath, scored.signature),
        against,
        correction,
        alpha,
        tests,
        skipped
      }
      yield* Console.log(CompareJson.significanceText(document))
    } else {
      yield* Console.log(TextView.header(scored, c) + "\n")
      for (const t of texts) yield* (t.error ? Console.error(t.text) : Console.log(t.text))
      for (const x of skipped) yield* Console.log(c.yellow(`not tested: ${x.ranking}: ${x.reason}`))
    }
    if (failed.length > 0 || tests.length === 0) {
      return yield* new ExitCode({ code: 1, reason: failed.map((t) => `${t.ranking}: ${t.error}`).join("; ") || "nothing tested" })
    }
  })
).pipe(
  Command.withDescription(
    "Rank the runs of a submissions folder and test their differences: which runs are not significantly different from the best (bold), or all pairs with groups. Williams' t by default (as STS 2017); bootstrap for multi-dataset aggregates."
  )
)
