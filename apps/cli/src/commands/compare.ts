/**
 * `stseval compare`: is run A significantly better than run B? Per dataset (track) with the chosen
 * test (default Williams' t, as STS 2017), plus the edition's aggregate by paired bootstrap or
 * approximate randomisation stratified by dataset; for SICK, relatedness and (McNemar) entailment.
 */
import { cpuBound } from "@stseval/app/signals"
import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Issue, Registry } from "@stseval/formats"
import { MetricValue, Metrics } from "@stseval/metrics"
import { Aligned, ResultJson, ScoredRun, Style } from "@stseval/scoring"
import type { Compare, McNemar } from "@stseval/significance"
import * as CompareJson from "../internal/CompareJson.js"
import { ExitCode, UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Lazy from "../internal/Lazy.js"
import * as TextView from "../internal/TextView.js"
import * as Colour from "../internal/Colour.js"
import * as Task from "../internal/Task.js"
import * as TextTable from "../internal/TextTable.js"
import { dataset, fmt, fmtCi, fmtP, fmtR, metric, metricOf, progressReporter, resamples, seed, test } from "../internal/CompareFlags.js"

const alternative = Flag.Literals("alternative", ["two.sided", "greater", "less"]).pipe(
  Flags.defaulting("Alternative hypothesis; greater: run A is better", "two.sided")
)

// ---------------------------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------------------------

const runA = Argument.String("runA").pipe(Argument.withDescription("Run A (a file, a run folder or a zip)"))
const runB = Argument.String("runB").pipe(Argument.withDescription("Run B"))

interface Row {
  readonly dataset: string
  readonly pairs: number
  readonly comparison: Compare.Comparison
}

/**
 * The official figures of the two runs in a ranking over several datasets, by the edition's rule,
 * as the ranking has them (`ScoredRun.official`): whether both runs have every dataset (then the
 * aggregate test is of the official figure), and, when not, what each figure is and why no test.
 * Undefined for one dataset, a ranking per dataset, `--dataset`, or a metric other than the ranking's.
 */
const officialOf = (
  edition: Registry.TaskEdition,
  ranking: Registry.Ranking,
  runs: ReadonlyArray<ScoredRun.ScoredRun>,
  compared: string,
  only: string | undefined
) => {
  const datasets = Registry.datasetsOf(edition, ranking)
  if (only !== undefined || datasets.length < 2 || Registry.isRankedPerDataset(ranking) || compared !== ranking.metric) return undefined
  const scope = Aligned.scopes(edition).find((s) => s.ranking === ranking && s.only === undefined)
  if (scope === undefined) return undefined
  const figures = runs.map((r) => r.official.find((o) => o.ranking === scope.name))
  const has = (r: ScoredRun.ScoredRun, d: string) => r.datasets.some((x) => x.dataset === d && x.status === "scored")
  const complete = datasets.every((d) => runs.every((r) => has(r, d.name)))
  const how = Aligned.aggregateOf(ranking)
  const reason = complete
    ? undefined
    : figures.some((f) => f?.value._tag !== "Defined")
      ? "a run has no official figure (the edition's rule gives none when a dataset is missing): no test of the official figure"
      : `a dataset one run lacks entered its official figure as ${edition.missingDataset === "zero" ? "0 (the edition's rule)" : "the metric's missing value"}, which resampling the pairs cannot reproduce: no test of the official figure`
  const side = (f: (typeof figures)[number]) => ({
    value: f?.value._tag === "Defined" ? f.value.value : null,
    ...(f !== undefined && f.value._tag !== "Defined" ? { reason: f.value.reason } : {}),
    zeroed: (f?.zeroed ?? []).map((z) => z.dataset)
  })
  const json = { ranking: scope.name, rule: how, complete, a: side(figures[0]), b: side(figures[1]), ...(reason !== undefined ? { reason } : {}) }
  const text = (print: (x: number) => string) => {
    const one = (label: string, f: (typeof figures)[number]) =>
      f === undefined || f.value._tag !== "Defined"
        ? `${label} none (${f?.value._tag === "Undefined" ? f.value.reason : "not ranked"})`
        : `${label} ${print(f.value.value)}${f.zeroed.length > 0 ? ` (${f.zeroed.map((z) => z.dataset).join(", ")} entered as 0)` : ""}`
    return `official (${how}, ${datasets.length} datasets): ${one("A", figures[0])}, ${one("B", figures[1])}; ${reason}`
  }
  return { complete, of: datasets.length, json, text }
}

export const compare = Command.make(
  "compare",
  {
    task: Flags.task,
    gold: Flags.gold,
    dataRoot: Flags.dataRoot,
    json: Flags.json,
    test,
    resamples,
    seed,
    metric,
    alternative,
    dataset,
    ...Flags.budget,
    runA,
    runB
  },
  Effect.fn(function*({ task, gold, dataRoot, json, test, resamples, seed, metric, alternative, dataset, timeBudget, memoryBudget, runA, runB }) {
    const c = yield* Colour.Colour
    const edition = yield* Task.edition(task)
    const { Compare, Datasets, McNemar, TestResult } = yield* Lazy.significance
    const only = Option.getOrUndefined(dataset)
    if (only !== undefined && !edition.datasets.some((d) => d.name === only)) {
      return yield* new UsageError({ message: `--dataset: ${edition.id} has no dataset ${only} (${edition.datasets.map((d) => d.name).join(", ")})` })
    }
    const scored = yield* Task.score(edition, { gold, dataRoot, timeBudget, memoryBudget }, { runs: [runA, runB] })
    const goldPath = scored.goldPath ?? ""
    const runs = scored.runs
    if (runs.length !== 2) {
      return yield* new UsageError({ message: `compare takes two runs; ${runA} and ${runB} name ${runs.length}` })
    }
    // the runs' scores on each dataset both have scored, as the engine aligned them: the ranking of
    // the dataset asked for, else the headline ranking
    const spec = only === undefined ? undefined : edition.datasets.find((d) => d.name === only)
    const ranking = spec !== undefined ? Registry.rankingOfDataset(edition, spec) : edition.ranking[0]
    const aligned = Aligned.datasets(edition, runs, { ranking, only })
    const graded = aligned.datasets.flatMap((d) => (d.kind === "scores" ? [d] : []))
    const compared = metricOf(metric, ranking, edition)
    const chosen = Option.getOrElse(test, () => Compare.testFor(compared))
    const common = { alternative, resamples, seed, metric: compared, progress: progressReporter(json) } as const
    const tooMany = Task.checkResamples("--resamples", resamples, 2 * (graded.length + 1))
    if (tooMany !== undefined) return yield* tooMany

    // the runs' own errors (file, line, what was expected): why a dataset could not be compared
    const runErrors = runs.flatMap((r) => r.errors)
    const rows: Array<Row> = []
    // a test that could not be computed (e.g. a constant run), per dataset
    const errors: Array<string> = []
    for (const d of graded) {
      // long computations on this thread: Ctrl-C and SIGTERM end them at once (@stseval/app/signals)
      const c = yield* cpuBound(() => Compare.two(d.gold, d.runs[0], d.runs[1], { ...common, test: chosen }))
      if (TestResult.isInvalid(c)) errors.push(`${d.name}: ${c.message}`)
      else rows.push({ dataset: d.name, pairs: d.gold.length, comparison: c })
    }
    // The edition's official figure over several datasets, by its rule: tested (resampling
    // stratified by dataset) when both runs have every dataset of the ranking; otherwise the two
    // official figures as the ranking has them (a missing dataset entered as the rule says: 0 under
    // `zero`; no figure under `no-official-score`), no test, and the reason; the datasets both runs
    // have are then compared as such, labelled so, never under the official figure's name.
    const official = officialOf(edition, ranking, runs, compared, only)
    let aggregateRow: Row | undefined
    let sharedRow: Row | undefined
    if (graded.length > 1) {
      const how = Aligned.aggregateOf(ranking)
      const j = Datasets.join(graded, how)
      const resampling = chosen === "bootstrap" || chosen === "permutation" ? chosen : "bootstrap"
      const c = TestResult.isInvalid(j) ? j : yield* cpuBound(() => Compare.two(j.gold, j.runs[0], j.runs[1], { ...common, ...j, test: resampling }))
      const pairs = graded.reduce((n, d) => n + d.gold.length, 0)
      const whole = official !== undefined && official.complete
      if (TestResult.isInvalid(c)) errors.push(`${whole ? "aggregate" : "shared datasets"}: ${c.message}`)
      else if (whole) aggregateRow = { dataset: `aggregate (${how})`, pairs, comparison: c }
      else sharedRow = { dataset: `shared ${graded.length} of ${official?.of ?? graded.length} datasets (${how})`, pairs, comparison: c }
    }
    // A ranking of labels (SICK entailment): McNemar on the discordant pairs.
    let entailment: (McNemar.Result & { readonly accuracyA: number; readonly accuracyB: number }) | undefined
    // the metric of the labels' ranking (SICK: accuracy), whose descriptor says how it prints
    let labelsMetric = ""
    const skippedEntailment: Array<{ dataset: string; reason: string }> = []
    for (const r of edition.ranking) {
      if (only !== undefined || entailment !== undefined || r === ranking) continue
      const labels = Aligned.datasets(edition, runs, { ranking: r })
      const l = labels.datasets[0]
      if (l === undefined) skippedEntailment.push(...labels.skipped)
      else if (l.kind === "labels") {
        const m = McNemar.compareLabels(l.gold, l.runs[0], l.runs[1])
        // the official figure, as `score` gives it
        const acc = (run: ScoredRun.ScoredRun) => MetricValue.getOrNaN(ScoredRun.figure(run, l.name, r.metric) ?? MetricValue.undefined_(""))
        if (!TestResult.isInvalid(m)) {
          entailment = { ...m, accuracyA: acc(runs[0]), accuracyB: acc(runs[1]) }
          labelsMetric = r.metric
        }
        else skippedEntailment.push({ dataset: l.name, reason: m.message })
      }
    }

    const ids = runs.map((r) => r.meta.id)
    if (json) {
      const document: CompareJson.CompareResults = {
        ...CompareJson.head(CompareJson.COMPARE_FORMAT, edition.id, goldPath, scored.signature),
        runA: ids[0],
        runB: ids[1],
        metric: compared,
        runs: runs.map((r) => ResultJson.toJson(r).run),
        datasets: rows.map((r) => CompareJson.compareRow(r.dataset, r.pairs, r.comparison)),
        ...(official !== undefined ? { official: official.json } : {}),
        ...(aggregateRow !== undefined ? { aggregate: CompareJson.compareRow(aggregateRow.dataset, aggregateRow.pairs, aggregateRow.comparison) } : {}),
        ...(sharedRow !== undefined ? { shared: CompareJson.compareRow(sharedRow.dataset, sharedRow.pairs, sharedRow.comparison) } : {}),
        ...(entailment !== undefined ? { entailment: CompareJson.entailmentJson(entailment, entailment.accuracyA, entailment.accuracyB) } : {}),
        skipped: [...aligned.skipped, ...skippedEntailment],
        runErrors,
        errors
      }
      yield* Console.log(JSON.stringify(document, null, 2))
    } else {
      // figures in the edition's published style, as `score` prints them
      const style = Style.forMetric(edition, compared)
      const symbol = Metrics.get(compared)?.symbol ?? compared
      const percent = Style.forMetric(edition, labelsMetric)
      yield* Console.log(`${TextView.header(scored, c)}\nA: ${ids[0]}\nB: ${ids[1]}\n`)
      // the official figure's row says so; the shared datasets' says it is not the official figure
      const all = [
        ...rows,
        ...(aggregateRow !== undefined ? [{ ...aggregateRow, dataset: `official (${Aligned.aggregateOf(ranking)})` }] : []),
        ...(sharedRow !== undefined ? [{ ...sharedRow, dataset: `${sharedRow.dataset}: not the official figure` }] : [])
      ]
      if (all.length > 0) {
        yield* Console.log(
          TextTable.render(
            [
              { header: "dataset" },
              { header: "pairs", align: "right" },
              { header: `${symbol}(A)`, align: "right" },
              { header: `${symbol}(B)`, align: "right" },
              { header: "A-B", align: "right" },
              { header: "test" },
              { header: "statistic", align: "right" },
              { header: "p", align: "right" },
              { header: "CI" }
            ],
            all.map(({ comparison: c, dataset, pairs }) => [
              dataset,
              String(pairs),
              fmtR(c.estimateA, style),
              fmtR(c.estimateB, style),
              fmtR(c.estimateA - c.estimateB, style),
              c.test + (c.df !== undefined ? ` (df ${c.df})` : ""),
              // one unit per row: a resampling test's statistic is the difference, in the figures' style
              c.test === "bootstrap" || c.test === "permutation" ? fmtR(c.statistic, style) : fmt(c.statistic, 3),
              fmtP(c.pValue),
              fmtCi(c.ci, style)
            ]),
            c
          )
        )
        yield* Console.log(`\nalternative: ${alternative}${alternative === "greater" ? " (A better)" : alternative === "less" ? " (B better)" : ""}`)
        const signatures = new Set(all.flatMap((r) => (r.comparison.signature !== undefined ? [r.comparison.signature] : [])))
        for (const s of signatures) yield* Console.log(`signature: ${s}`)
        const degenerate = all.filter((r) => (r.comparison.degenerate ?? 0) > 0)
        for (const r of degenerate) {
          yield* Console.log(c.yellow(`${r.dataset}: ${r.comparison.degenerate} resamples had an undefined correlation and were left out`))
        }
      }
      if (official !== undefined && !official.complete) yield* Console.log(`\n${official.text((x) => fmtR(x, style))}`)
      if (entailment !== undefined) {
        yield* Console.log(
          `\nentailment: accuracy A ${Style.format(entailment.accuracyA, percent)}, B ${Style.format(entailment.accuracyB, percent)}; McNemar (${entailment.method}) b = ${entailment.b}, c = ${entailment.c}, p = ${fmtP(entailment.pValue)}`
        )
      }
      for (const s of [...aligned.skipped, ...skippedEntailment]) yield* Console.log(c.yellow(`not compared: ${s.dataset}: ${s.reason}`))
      for (const i of runErrors.slice(0, 8)) yield* Console.log(c.red(Issue.format(i)))
      const moreErrors = Issue.count(runErrors.slice(8))
      if (moreErrors > 0) yield* Console.log(c.red(`... and ${moreErrors} more errors (--json lists them all)`))
      for (const e of errors) yield* Console.log(c.red(e))
    }
    if (rows.length === 0 && entailment === undefined) {
      return yield* new ExitCode({ code: 1, reason: "nothing could be compared" })
    }
  })
).pipe(
  Command.withDescription(
    "Compare two runs: per dataset with Williams' t (or another cocor test), the edition's aggregate by paired bootstrap / approximate randomisation stratified by dataset, and SICK entailment by McNemar. Exit 1 when nothing could be compared."
  )
)
