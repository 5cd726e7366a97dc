/**
 * `stseval significance`: rank the runs of a submissions folder and say which are significantly
 * different: the runs not significantly different from the best (the papers' bold), or every pair
 * with groups of mutually indistinguishable runs, or every run against one run.
 */
import { cpuBound } from "@stseval/app/signals"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Registry } from "@stseval/formats"
import { Aligned, Style } from "@stseval/scoring"
import * as CompareJson from "../internal/CompareJson.js"
import { ExitCode, UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Lazy from "../internal/Lazy.js"
import * as Render from "../internal/Render.js"
import * as Colour from "../internal/Style.js"
import * as Task from "../internal/Task.js"
import * as TextTable from "../internal/TextTable.js"
import { dataset, fmtP, fmtR, metric, progressReporter, resamples, seed, test } from "../internal/CompareFlags.js"

const against = Flag.String("against").pipe(
  Flags.defaulting("best: every run against the top run; all: every pair (with groups); or a run id (e.g. ECNU/run1)", "best")
)

const correction = Flag.Literals("correction", ["none", "holm", "bonferroni"]).pipe(
  Flags.defaulting("Multiple-comparison correction over all comparisons made", "none")
)

const alpha = Flags.alpha.pipe(Flags.defaulting("Significance level, strictly between 0 and 1", 0.05))

const folders = Argument.String("folder").pipe(
  Argument.withDescription("Submissions folder(s) of runs (or runs)"),
  Argument.atLeast(1)
)

export const significance = Command.make(
  "significance",
  {
    task: Flags.task,
    gold: Flags.gold,
    dataRoot: Flags.dataRoot,
    json: Flags.json,
    allRuns: Flags.allRuns,
    against,
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
  Effect.fn(function*({ task, gold, dataRoot, json, allRuns, against, test, correction, alpha, resamples, seed, metric, dataset, timeBudget, memoryBudget, folders }) {
    const edition = yield* Task.edition(task)
    const { Compare, Datasets, TestResult } = yield* Lazy.significance
    const only = Option.getOrUndefined(dataset)
    if (only !== undefined && !edition.datasets.some((d) => d.name === only)) {
      return yield* new UsageError({ message: `--dataset: ${edition.id} has no dataset ${only}` })
    }
    const scored = yield* Task.score(edition, { gold, dataRoot, timeBudget, memoryBudget }, { runs: folders })
    const goldPath = scored.goldPath ?? ""
    const primaries = scored.runs.filter((r) => r.meta.primary)
    const chosenRuns = allRuns || primaries.length === 0 ? scored.runs : primaries

    // Runs that cannot be compared on every dataset considered are left out (with the reason):
    // all runs must be scored on the same pairs.
    const excluded: Array<{ run: string; reason: string }> = []
    const spec = only === undefined ? undefined : edition.datasets.find((d) => d.name === only)
    const ranking = spec !== undefined ? Registry.rankingOfDataset(edition, spec) : edition.ranking[0]
    const kept = chosenRuns.filter((r) => {
      const own = Aligned.datasets(edition, [r], { ranking, only })
      if (own.datasets.length === 0 || own.skipped.length > 0) {
        excluded.push({ run: r.meta.id, reason: own.skipped.map((s) => `${s.dataset}: ${s.reason}`).join("; ") || "nothing scored" })
        return false
      }
      return true
    })
    const aligned = Aligned.datasets(edition, kept, { ranking, only })
    const multi = aligned.datasets.length > 1
    const chosen = Option.getOrElse(test, () => Datasets.defaultTest(aligned.datasets.length))
    if (kept.length < 2 || aligned.datasets.length === 0) {
      const why = kept.length < 2 ? `fewer than two comparable runs (${kept.length})` : aligned.skipped.map((x) => `${x.dataset}: ${x.reason}`).join("; ")
      if (json) {
        const document: CompareJson.SignificanceResults = {
          format: CompareJson.SIGNIFICANCE_FORMAT,
          edition: edition.id,
          gold: goldPath,
          scoring: scored.signature,
          test: chosen,
          datasets: aligned.datasets.map((d) => d.name),
          against,
          correction,
          alpha,
          error: `nothing to test: ${why}`,
          ranking: [],
          comparisons: [],
          excluded
        }
        yield* Console.log(JSON.stringify(document, null, 2))
      } else {
        yield* Console.error(Colour.red(`nothing to test: ${why}`))
        for (const e of excluded) yield* Console.error(Colour.yellow(`left out: ${e.run}: ${e.reason}`))
      }
      return yield* new ExitCode({ code: 1, reason: why })
    }
    const ids = kept.map((r) => r.meta.id)
    let reference: "best" | "all" | number
    if (against === "best" || against === "all") reference = against
    else {
      const i = ids.indexOf(against)
      if (i < 0) return yield* new UsageError({ message: `--against: no comparable run ${against} (runs: ${ids.join(", ")})` })
      reference = i
    }
    if (multi && chosen !== "bootstrap" && chosen !== "permutation") {
      return yield* new UsageError({
        message: `--test ${chosen} compares one correlation; for ${edition.id}'s aggregate use bootstrap or permutation, or pick one dataset with --dataset`
      })
    }
    const how = Aligned.aggregateOf(ranking)
    const j = Datasets.join(aligned.datasets.flatMap((d) => (d.kind === "scores" ? [d] : [])), how)
    if (TestResult.isInvalid(j)) return yield* new UsageError({ message: j.message })
    if (chosen === "bootstrap" || chosen === "permutation") {
      const tooMany = Task.checkResamples("--resamples", resamples, j.runs.length * (aligned.datasets.length + 1))
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
      metric,
      progress: progressReporter(json)
    }))
    if (TestResult.isInvalid(result)) return yield* new UsageError({ message: result.message })

    const named: CompareJson.SignificanceResults = {
      format: CompareJson.SIGNIFICANCE_FORMAT,
      edition: edition.id,
      gold: goldPath,
      scoring: scored.signature,
      test: chosen,
      ...(multi ? { aggregate: how } : {}),
      datasets: aligned.datasets.map((d) => d.name),
      against,
      correction,
      alpha,
      ...(result.signature !== undefined ? { signature: result.signature } : {}),
      ranking: result.ranking.map((run, position) =>
        CompareJson.rankingEntry(kept[run], position + 1, result.estimates[run], result.best.includes(run), {
          // 1-based, like position and rankRange (and the text table)
          ...(result.groups !== undefined ? { group: result.groups[position] + 1 } : {}),
          ...(result.rankRanges !== undefined ? { rankRange: [result.rankRanges[position].lo + 1, result.rankRanges[position].hi + 1] as const } : {})
        })
      ),
      comparisons: result.comparisons.map((c) => CompareJson.significanceComparison(c, ids)),
      excluded
    }
    if (json) {
      yield* Console.log(JSON.stringify(named, null, 2))
      return
    }
    yield* Console.log(Render.header(scored))
    yield* Console.log(
      `test: ${chosen}${multi ? ` on the ${how} aggregate of ${aligned.datasets.length} datasets` : ""}; alpha ${alpha}; correction ${correction}\n`
    )
    // p of each run against the reference (best or the given run)
    const refRun = reference === "all" || reference === "best" ? result.ranking[0] : reference
    const pAgainstRef = (run: number): number | undefined => {
      const c = result.comparisons.find((x) => (x.a === refRun && x.b === run) || (x.b === refRun && x.a === run))
      return c === undefined ? undefined : (c.adjustedP ?? c.pValue)
    }
    yield* Console.log(
      TextTable.render(
        [
          { header: "#", align: "right" },
          { header: "run" },
          { header: "r", align: "right" },
          { header: `p vs ${reference === "all" || reference === "best" ? "best" : ids[refRun]}`, align: "right" },
          ...(result.groups !== undefined ? [{ header: "group", align: "right" as const }, { header: "rank range" }] : [])
        ],
        result.ranking.map((run, position) => {
          const id = result.best.includes(run) ? Colour.bold(ids[run]) : ids[run]
          return [
            String(position + 1),
            id,
            fmtR(result.estimates[run], Style.of(edition, "correlation")),
            run === refRun ? "-" : fmtP(pAgainstRef(run)),
            ...(result.groups !== undefined
              ? [String(result.groups[position] + 1), `${result.rankRanges![position].lo + 1}-${result.rankRanges![position].hi + 1}`]
              : [])
          ]
        })
      )
    )
    if (result.best.length > 0) {
      yield* Console.log(`\nnot significantly different from the best (p > ${alpha}): ${result.best.map((r) => ids[r]).join(", ")}`)
    }
    if (result.signature !== undefined) yield* Console.log(`signature: ${result.signature}`)
    for (const e of excluded) yield* Console.log(Colour.yellow(`left out: ${e.run}: ${e.reason}`))
  })
).pipe(
  Command.withDescription(
    "Rank the runs of a submissions folder and test their differences: which runs are not significantly different from the best (bold), or all pairs with groups. Williams' t by default (as STS 2017); bootstrap for multi-dataset aggregates."
  )
)
