/**
 * Validation of one run against an edition and its gold: what will and will not be scored, and why.
 *
 * Pure functions over bytes already in memory (no I/O). For SICK, pairs are aligned by pair ID and
 * each subtask (relatedness, entailment) is evaluated or not on its own; for STS, each dataset's run
 * file is aligned to its gold by line number. Every decision is recorded as an `Issue` (file, line,
 * field, expected, found) and, for what is not scored, a one-sentence reason.
 *
 * @since 0.1.0
 */
import { Glue, Issue, Registry, SemRel, Sick, Sts, Text } from "@stseval/formats"
import type { Gold, Submissions } from "@stseval/formats"
import { officialAggregate, perDataset } from "./internal/edition.js"
import type { DatasetSpec, Edition } from "./internal/edition.js"
import { capped, errors, listing, plural } from "./internal/issues.js"

/**
 * The gold of one STS dataset (scores aligned with input lines; NaN = not annotated).
 *
 * @example
 * ```ts
 * import { Gold } from "@stseval/formats"
 * import { Validation } from "@stseval/scoring"
 *
 * declare const gold: Gold.Gold
 * const scored = gold.datasets.filter((d): d is Validation.GoldScores => d.kind === "scores")
 * ```
 * @since 0.1.0
 */
export type GoldScores = Extract<Gold.GoldDataset, { readonly kind: "scores" }>
/**
 * The SICK gold.
 *
 * @example
 * ```ts
 * import { Gold } from "@stseval/formats"
 * import { Validation } from "@stseval/scoring"
 *
 * declare const gold: Gold.Gold
 * const sick = gold.datasets.find((d): d is Validation.GoldSick => d.kind === "sick")
 * ```
 * @since 0.1.0
 */
export type GoldSick = Extract<Gold.GoldDataset, { readonly kind: "sick" }>
/**
 * Who submitted a run (from its name or `run.json`).
 *
 * @example
 * ```ts
 * import { Engine, Validation } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const info: Validation.RunInfo = results.runs[0].meta
 * info.id // "MeaningFactory/run1"
 * ```
 * @since 0.1.0
 */
export type RunInfo = Submissions.RunMeta

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/**
 * What became of one STS dataset of a run: `scored`, `not-scored` (the file or its alignment has
 * an error), `missing` (the run has no file for it) or `no-gold` (there is no gold to score it
 * against: its gold was never released (`goldNotPublic`, SemRel's esp), or, in an edition ranked
 * per dataset, the gold was not loaded and the run has no file for it either). A `no-gold` dataset
 * is listed with the reason and never counted against the run.
 *
 * @example
 * ```ts
 * import { Validation } from "@stseval/scoring"
 *
 * const shown = (s: Validation.DatasetStatus): string => (s === "scored" ? "ok" : s === "missing" ? "not submitted" : s)
 * ```
 * @since 0.2.0
 */
export type DatasetStatus = "scored" | "not-scored" | "missing" | "no-gold"

/**
 * One STS dataset of a run (see `DatasetStatus`). When scored, `run` / `gold` / `confidence` hold
 * the scored pairs, aligned.
 *
 * @example
 * ```ts
 * import { Validation } from "@stseval/scoring"
 *
 * declare const v: Validation.RunValidation
 * const notScored: ReadonlyArray<Validation.StsDatasetCheck> = v.datasets.filter((d) => d.status !== "scored")
 * ```
 * @since 0.1.0
 */
export interface StsDatasetCheck {
  readonly dataset: string
  readonly status: DatasetStatus
  /** why the dataset is not scored (a sentence), when it is not */
  readonly reason: string | undefined
  /** the run file's path, when the run has one for this dataset */
  readonly file: string | undefined
  /** pairs this dataset weighs in the weighted mean: its annotated gold pairs within the scored lines */
  readonly weight: number
  /** pairs scored (0 unless scored) */
  readonly pairs: number
  /** score lines in the run file (0 when missing / unreadable) */
  readonly runLines: number
  /** the run's lines that were scored, 1-based inclusive (`[1, 250]`), when scored */
  readonly linesScored: readonly [number, number] | undefined
  readonly run: Float64Array
  readonly gold: Float64Array
  /** the run's confidences (0-100) of the scored pairs, when every line has one */
  readonly confidence: Float64Array | undefined
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * One SICK subtask of a run.
 *
 * @example
 * ```ts
 * import { Validation } from "@stseval/scoring"
 *
 * declare const check: Validation.SickCheck
 * const relatedness: Validation.SubtaskCheck<Float64Array> = check.relatedness
 * relatedness.status === "not-evaluated" ? relatedness.reason : relatedness.pairs
 * ```
 * @since 0.1.0
 */
export interface SubtaskCheck<A> {
  readonly status: "scored" | "not-evaluated"
  readonly reason: string | undefined
  readonly pairs: number
  /** the run's values, in gold order */
  readonly run: A
  readonly gold: A
}

/**
 * A SICK run file.
 *
 * @example
 * ```ts
 * import { Validation } from "@stseval/scoring"
 *
 * declare const v: Validation.RunValidation
 * const sick: Validation.SickCheck | undefined = v.sick
 * sick?.entailment.reason // e.g. "the run's entailment_judgment column holds NA ..."
 * ```
 * @since 0.1.0
 */
export interface SickCheck {
  readonly file: string | undefined
  readonly relatedness: SubtaskCheck<Float64Array>
  readonly entailment: SubtaskCheck<ReadonlyArray<string>>
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * @example
 * ```ts
 * import { Validation } from "@stseval/scoring"
 *
 * declare const v: Validation.RunValidation
 * v.failed ? v.failure : `${v.datasets.length} datasets checked`
 * ```
 * @since 0.1.0
 */
export interface RunValidation {
  readonly edition: string
  readonly kind: "sick" | "sts"
  readonly path: string
  readonly meta: RunInfo
  /** SICK only */
  readonly sick: SickCheck | undefined
  /** STS only, in the edition's order */
  readonly datasets: ReadonlyArray<StsDatasetCheck>
  /** issues about the run as a whole (loading, file names); per-file issues are in `sick` / `datasets` */
  readonly issues: ReadonlyArray<Issue.Issue>
  /** true when nothing at all can be scored */
  readonly failed: boolean
  /** why the run failed, when it did */
  readonly failure: string | undefined
}

/**
 * Every issue of a validation, run-level first, then per file in the edition's order.
 *
 * @example
 * ```ts
 * import { Validation } from "@stseval/scoring"
 *
 * declare const v: Validation.RunValidation
 * const errors = Validation.allIssues(v).filter((i) => i.severity === "error")
 * ```
 * @since 0.1.0
 */
export const allIssues = (v: RunValidation): ReadonlyArray<Issue.Issue> => [
  ...v.issues,
  ...(v.sick?.issues ?? []),
  ...v.datasets.flatMap((d) => d.issues)
]

// ---------------------------------------------------------------------------------------------
// STS
// ---------------------------------------------------------------------------------------------

const EMPTY = new Float64Array(0)

// Every run of a dataset is scored on the same gold pairs: one aligned gold array per gold and
// scored range, shared by all runs, instead of one copy per run.
const goldCache = new WeakMap<Float64Array, Map<number, Float64Array>>()
const alignedGold = (scores: Float64Array, end: number, pairs: number): Float64Array => {
  let byEnd = goldCache.get(scores)
  if (byEnd === undefined) goldCache.set(scores, (byEnd = new Map<number, Float64Array>()))
  let g = byEnd.get(end)
  if (g === undefined) {
    g = new Float64Array(pairs)
    let k = 0
    for (let i = 0; i < end; i++) if (!Number.isNaN(scores[i])) g[k++] = scores[i]
    byEnd.set(end, g)
  }
  return g
}
const sickGoldCache = new WeakMap<GoldSick, { readonly relatedness: Float64Array; readonly entailment: ReadonlyArray<string> }>()
const sickGold = (gold: GoldSick) => {
  let g = sickGoldCache.get(gold)
  if (g === undefined) {
    g = { relatedness: Float64Array.from(gold.pairs, (p) => p.relatedness!), entailment: gold.pairs.map((p) => p.entailment!) }
    sickGoldCache.set(gold, g)
  }
  return g
}

const notScored = (
  dataset: string,
  status: Exclude<DatasetStatus, "scored">,
  reason: string,
  file: string | undefined,
  weight: number,
  runLines: number,
  issues: ReadonlyArray<Issue.Issue>
): StsDatasetCheck => ({
  dataset,
  status,
  reason,
  file,
  weight,
  pairs: 0,
  runLines,
  linesScored: undefined,
  run: EMPTY,
  gold: EMPTY,
  confidence: undefined,
  issues
})

/**
 * Why something is not scored: the first error, and how many there are in all (`Issue.count`: a
 * capped list stands for every bad line behind it). `what` prefixes a file-level reason ("the file
 * is malformed"); a dataset's or subtask's own reason has none, as the renderers already say what
 * is not scored.
 */
const firstErrorReason = (errs: ReadonlyArray<Issue.Issue>, what?: string): string => {
  const first = errs[0]
  const total = Issue.count(errs)
  const reason = total === 1 ? first.message : `${first.message} (the first of ${total} errors)`
  return what === undefined ? reason : `${what}: ${reason}`
}

const ALIGNMENT_CODES: ReadonlyArray<string> = ["missing-pair", "unknown-pair", "duplicate-pair"]

const countAnnotated = (scores: Float64Array, end: number): number => {
  let n = 0
  for (let i = 0; i < end; i++) if (!Number.isNaN(scores[i])) n++
  return n
}

/** What a missing dataset means under the edition's official rule, for the message. */
const missingConsequence = (edition: Edition): string => {
  if (perDataset(edition)) return "it is not ranked in that dataset (runs are ranked in each dataset on its own)"
  const rule = officialAggregate(edition)
  if (edition.datasets.length === 1 || rule === "single") return "the run cannot be scored"
  if (rule === "pooled" || rule === "allnrm") return `the run gets no official score (${rule} needs every dataset)`
  return edition.missingDataset === "zero"
    ? `it counts as r = 0 in the official ${rule === "wmean" ? "weighted mean" : "mean"}`
    : "the run gets no official score, which needs every dataset"
}

/**
 * Check one STS dataset of a run: decode and parse the run file, align it with the gold by line
 * number, skip pairs whose gold line is blank (not annotated, 2015/16), score only the edition's
 * scored lines (2017 track 6: input lines 1-250, from a 250- or 500-line run). A file error, a
 * non-numeric / non-finite score or a length mismatch means the dataset is not scored.
 *
 * @example
 * ```ts
 * import { Registry, Submissions } from "@stseval/formats"
 * import { Validation } from "@stseval/scoring"
 *
 * declare const gold: Validation.GoldScores
 * declare const file: Submissions.RunFile
 * const edition = Registry.get("sts2017")!
 * const check = Validation.checkStsDataset(edition, edition.datasets[0], gold, file)
 * check.linesScored // e.g. [1, 250]
 * ```
 * @since 0.1.0
 */
export const checkStsDataset = (
  edition: Edition,
  dataset: DatasetSpec,
  gold: GoldScores | undefined,
  file: Submissions.RunFile | undefined,
  /** the run (folder or zip) the file belongs to: a missing file's issue names where it was expected */
  runPath?: string
): StsDatasetCheck => {
  const name = dataset.name
  if (gold === undefined && dataset.goldNotPublic !== undefined) {
    // not the run's fault: listed with the reason, never an error
    const issues = file === undefined ? [] : [Issue.info("not-public", file.path, `${name} cannot be scored: ${dataset.goldNotPublic}`, { field: name })]
    return notScored(name, "no-gold", dataset.goldNotPublic, file?.path, 0, 0, issues)
  }
  if (gold === undefined && file === undefined && perDataset(edition)) {
    return notScored(name, "no-gold", `no gold was loaded for dataset ${name}, and the run has no file for it`, undefined, 0, 0, [])
  }
  if (gold === undefined) {
    const path = file?.path ?? dataset.run
    return notScored(name, file === undefined ? "missing" : "not-scored", `no gold was loaded for dataset ${name}`, file?.path, 0, 0, [
      Issue.error("missing-dataset", path, `there is no gold for dataset ${name}, so it cannot be scored`, {
        expected: `the gold of ${name}`,
        found: "no gold file"
      })
    ])
  }
  if (Issue.hasErrors(gold.issues)) {
    const first = gold.issues.find((i) => i.severity === "error")!
    return notScored(name, file === undefined ? "missing" : "not-scored", `the gold of ${name} has errors (${first.message})`, file?.path, 0, 0, [])
  }
  const goldLines = gold.scores.length
  const scoredEnd = dataset.scoredLines !== undefined ? Math.min(dataset.scoredLines, goldLines) : goldLines
  const weight = countAnnotated(gold.scores, scoredEnd)
  if (file === undefined) {
    const expected = dataset.run
    const single = edition.datasets.length === 1
    const message = `the run has no file for dataset ${name} (expected ${expected}); ${missingConsequence(edition)}`
    const where = runPath === undefined ? expected : runPath.endsWith(".zip") ? `${runPath}!${expected}` : `${runPath}/${expected}`
    // ranked per dataset (SemRel): a run enters the languages it wants, so an absent one is no fault
    const severity = single ? Issue.error : perDataset(edition) ? Issue.info : Issue.warning
    const issue = severity("missing-dataset", where, message, { expected, found: "no such file" })
    return notScored(name, "missing", `the run has no file for dataset ${name}`, undefined, weight, 0, [issue])
  }
  const path = file.path
  const decoded = Text.decode(file.bytes, path)
  if (Registry.matchOf(dataset) === "pair-id") return checkByPairId(edition, name, gold, path, decoded)
  // a GLUE STS-B.tsv (header index<TAB>prediction) is an STS-B run with the rows given by index
  const parsed =
    dataset.goldFormat === "stsb-csv" && Glue.isStsbFile(decoded.value) ? Glue.parseStsb(decoded.value, goldLines) : Sts.parseOutput(decoded.value)
  const issues: Array<Issue.Issue> = [...decoded.issues, ...parsed.issues]
  const output = parsed.value
  const runLines = output.scores.length
  const fileErrors = errors(issues)
  if (fileErrors.length > 0) {
    return notScored(name, "not-scored", firstErrorReason(fileErrors), path, weight, runLines, issues)
  }
  // Which run lengths are accepted, and which run lines are scored.
  const accepted = new Set<number>([goldLines])
  if (dataset.scoredLines !== undefined) {
    accepted.add(scoredEnd)
    if (dataset.inputLines !== undefined) accepted.add(dataset.inputLines)
  }
  // A gold whose last lines are blank (unannotated pairs at the end) against a run that stops
  // before them: nothing would be scored on those lines anyway.
  const tailUnannotated = runLines < goldLines && runLines > 0 && countAnnotated(gold.scores.subarray(runLines), goldLines - runLines) === 0
  if (!accepted.has(runLines) && !tailUnannotated) {
    const want = [...accepted].sort((a, b) => a - b).join(" or ")
    const issue = Issue.error(
      "length-mismatch",
      path,
      `the run has ${plural(runLines, "score line")} but dataset ${name} has ${want} pairs (one score per input line, aligned by line number); the dataset is not scored`,
      {
        ...(runLines > 0 && runLines < goldLines ? { line: output.lines[runLines - 1] + 1 } : {}),
        expected: `${want} score lines`,
        found: `${runLines} score lines`
      }
    )
    return notScored(name, "not-scored", issue.message, path, weight, runLines, [...issues, issue])
  }
  if (tailUnannotated) {
    issues.push(
      Issue.info(
        "lines-scored",
        path,
        `the run has ${runLines} score lines, the gold ${goldLines}; gold lines ${runLines + 1}-${goldLines} are blank (not annotated), so nothing is lost`,
        { expected: `${goldLines} score lines`, found: `${runLines} score lines` }
      )
    )
  }
  const end = Math.min(scoredEnd, runLines)
  if (dataset.scoredLines !== undefined) {
    issues.push(
      Issue.info(
        "lines-scored",
        path,
        runLines > end
          ? `lines 1-${end} of the run's ${runLines} are scored: the gold of ${name} covers input lines 1-${end} only`
          : `the run has ${runLines} lines, all scored (input lines 1-${end}, the part of ${name} that has gold)`,
        { expected: `${end} or ${dataset.inputLines ?? runLines} score lines`, found: `${runLines} score lines` }
      )
    )
  }
  // Align: gold line i <-> run score i, skipping blank gold lines.
  const pairs = countAnnotated(gold.scores, end)
  const run = new Float64Array(pairs)
  const g = alignedGold(gold.scores, end, pairs)
  const confidence = output.confidence !== undefined ? new Float64Array(pairs) : undefined
  let k = 0
  let outside = 0
  let firstOutside = -1
  for (let i = 0; i < end; i++) {
    const y = gold.scores[i]
    if (Number.isNaN(y)) continue
    const x = output.scores[i]
    run[k] = x
    if (confidence !== undefined) confidence[k] = output.confidence![i]!
    if (x < edition.scale.min || x > edition.scale.max) {
      outside++
      if (firstOutside === -1) firstOutside = i
    }
    k++
  }
  if (pairs < end) {
    issues.push(
      Issue.info("not-annotated", path, `${pairs} of ${end} pairs annotated; ${pairs} scored (a blank gold line is a pair that was not annotated)`, {
        expected: `${end} annotated pairs`,
        found: `${pairs} annotated`
      })
    )
  }
  if (outside > 0) {
    issues.push(outOfScale(edition, path, outside, pairs, output.lines[firstOutside], output.scores[firstOutside], undefined))
  }
  return {
    dataset: name,
    status: "scored",
    reason: undefined,
    file: path,
    weight,
    pairs,
    runLines,
    linesScored: [1, end],
    run,
    gold: g,
    confidence,
    issues
  }
}

/**
 * A dataset matched by pair ID (SemEval-2024 Task 1's `pred_<lang>.csv`): `SemRel.matchRun`'s
 * checks, which are the organisers' `evaluation.py`'s (header, as many rows as the gold, no unknown
 * or repeated pair ID) plus a missing or NaN prediction; any error means the dataset is not scored.
 */
const checkByPairId = (edition: Edition, name: string, gold: GoldScores, path: string, decoded: Issue.Parsed<Text.TextFile>): StsDatasetCheck => {
  const weight = gold.scores.length
  const runLines = Math.max(0, Text.contentEnd(decoded.value.lines) - 1)
  if (gold.pairIds === undefined) {
    const issue = Issue.error("unknown-pair", path, `the gold of ${name} (${gold.file}) has no pair IDs to match the run by`, { expected: "a gold with pair IDs" })
    return notScored(name, "not-scored", issue.message, path, weight, runLines, [...decoded.issues, issue])
  }
  const matched = SemRel.matchRun(decoded.value, { file: gold.file, pairIds: gold.pairIds, scores: gold.scores }, { scale: edition.scale })
  const issues = [...decoded.issues, ...matched.issues]
  const fileErrors = errors(issues)
  if (fileErrors.length > 0) return notScored(name, "not-scored", firstErrorReason(fileErrors, `${name} is not scored`), path, weight, runLines, issues)
  const { run, gold: g } = matched.value
  return { dataset: name, status: "scored", reason: undefined, file: path, weight, pairs: run.length, runLines, linesScored: undefined, run, gold: g, confidence: undefined, issues }
}

const outOfScale = (edition: Edition, path: string, outside: number, pairs: number, line: number, value: number, field: string | undefined) =>
  Issue.warning(
    "out-of-scale",
    path,
    `${plural(outside, "score")} of ${pairs} lie outside the edition's scale ${edition.scale.min}-${edition.scale.max} (the first on line ${line}: ${value}); Pearson and Spearman are unaffected, but MSE is computed on these raw values`,
    { line, ...(field !== undefined ? { field } : {}), expected: `${edition.scale.min} to ${edition.scale.max}`, found: String(value) }
  )

/**
 * How strictly a run is read. `lenient` reads a headerless SICK run whose columns are recognised
 * from its values (with a warning); by default such a file is an error, as the official scorer
 * rejects it.
 *
 * @example
 * ```ts
 * import { Validation } from "@stseval/scoring"
 *
 * // read a SICK run without its header when its columns are unambiguous, with a warning
 * const options: Validation.ValidateOptions = { lenient: true }
 * ```
 * @since 0.2.0
 */
export interface ValidateOptions {
  readonly lenient?: boolean | undefined
}

// ---------------------------------------------------------------------------------------------
// SICK
// ---------------------------------------------------------------------------------------------

const subtaskNot = <A>(reason: string, empty: A): SubtaskCheck<A> => ({ status: "not-evaluated", reason, pairs: 0, run: empty, gold: empty })

const NO_LABELS: ReadonlyArray<string> = []

/**
 * Check a SICK run file against the gold: header and rows (`Sick.parseRun`), then alignment by
 * pair ID. A subtask is not evaluated when any gold pair ID is missing from the run, any run pair
 * ID is unknown or duplicated, the file is malformed (an error that names no field), the column is
 * absent or `NA`, or the column has a bad value (a non-numeric relatedness, an unknown entailment
 * label); the other subtask is still scored when its own column is sound.
 *
 * @example
 * ```ts
 * import { Registry, Submissions } from "@stseval/formats"
 * import { Validation } from "@stseval/scoring"
 *
 * declare const gold: Validation.GoldSick
 * declare const file: Submissions.RunFile
 * const check = Validation.checkSick(Registry.get("sick2014")!, gold, file)
 * check.relatedness.status // "scored", or "not-evaluated" with the reason
 * ```
 * @since 0.1.0
 */
export const checkSick = (
  edition: Edition,
  gold: GoldSick | undefined,
  file: Submissions.RunFile | undefined,
  options: ValidateOptions = {}
): SickCheck => {
  if (file === undefined) {
    const reason = "the run has no file"
    return {
      file: undefined,
      relatedness: subtaskNot(reason, EMPTY),
      entailment: subtaskNot(reason, NO_LABELS),
      issues: [Issue.error("missing-dataset", edition.datasets[0].run, "the run has no file to score")]
    }
  }
  const path = file.path
  const decoded = Text.decode(file.bytes, path)
  const parsed = Sick.parseRun(decoded.value, { lenient: options.lenient === true })
  const issues: Array<Issue.Issue> = [...decoded.issues, ...parsed.issues]
  if (gold === undefined) {
    const reason = "no SICK gold was loaded"
    return { file: path, relatedness: subtaskNot(reason, EMPTY), entailment: subtaskNot(reason, NO_LABELS), issues }
  }
  if (Issue.hasErrors(gold.issues.filter((i) => i.field === undefined))) {
    const reason = `the gold (${gold.file}) has errors: ${gold.issues.find((i) => i.severity === "error")!.message}`
    return { file: path, relatedness: subtaskNot(reason, EMPTY), entailment: subtaskNot(reason, NO_LABELS), issues }
  }
  const run = parsed.value
  const hasIds = run.columns.includes(Sick.PAIR_ID)
  // The common case: the run lists the gold's pairs in the gold's order, each once. Row i is then
  // gold pair i, with nothing unknown or missing, and no index by pair ID is needed (two maps of
  // 4,927 pairs, a few milliseconds of a single run's score).
  const inGoldOrder =
    hasIds &&
    run.rows.length === gold.pairs.length &&
    !parsed.issues.some((i) => i.code === "duplicate-pair") &&
    run.rows.every((row, i) => row.pairId === gold.pairs[i].pairId)
  // Otherwise alignment by pair ID (duplicates are reported by the parser; the first occurrence is kept).
  const byId = new Map<string, Sick.SickRunRow>()
  const rowOf = (i: number): Sick.SickRunRow => (inGoldOrder ? run.rows[i] : byId.get(gold.pairs[i].pairId)!)
  const unknown = capped()
  if (hasIds && !inGoldOrder) {
    const goldIndex = new Map<string, number>()
    gold.pairs.forEach((p, i) => goldIndex.set(p.pairId, i))
    for (const row of run.rows) {
      if (row.pairId === "") continue
      if (!goldIndex.has(row.pairId)) {
        unknown.add(() =>
          Issue.error("unknown-pair", path, `pair ID ${row.pairId} on line ${row.line} is not a pair of the gold (${gold.name})`, {
            line: row.line,
            expected: `a pair ID of ${gold.name}`,
            found: row.pairId
          })
        )
      } else if (!byId.has(row.pairId)) byId.set(row.pairId, row)
    }
    issues.push(
      ...unknown.done((more, total) =>
        Issue.error("unknown-pair", path, `... and ${more} more unknown pair IDs (${total} in all)`, { found: `${total} unknown pair IDs`, count: more })
      )
    )
    const missing = capped()
    for (const p of gold.pairs) {
      if (!byId.has(p.pairId)) {
        missing.add(() =>
          Issue.error("missing-pair", path, `pair ID ${p.pairId} of the gold has no line in the run`, {
            expected: `a line for pair ID ${p.pairId}`,
            found: "no such line"
          })
        )
      }
    }
    issues.push(
      ...missing.done((more, total) =>
        Issue.error("missing-pair", path, `... and ${more} more pair IDs of the gold have no line in the run (${total} of ${gold.pairs.length} missing)`, {
          found: `${total} of ${gold.pairs.length} pair IDs missing`,
          count: more
        })
      )
    )
  }
  const fileErrors = errors(issues).filter((i) => i.field === undefined)
  const fileReason =
    fileErrors.length === 0
      ? undefined
      : firstErrorReason(
          fileErrors,
          ALIGNMENT_CODES.includes(fileErrors[0].code) ? "the run's pair IDs do not match the gold" : "the file is malformed"
        )

  const subtask = <A>(
    column: Sick.SubtaskColumn,
    field: string,
    what: string,
    goldHas: boolean,
    empty: A,
    build: () => { run: A; gold: A }
  ): SubtaskCheck<A> => {
    if (!goldHas) return subtaskNot(`the gold (${gold.name}) has no ${what} values`, empty)
    if (column === "absent") return subtaskNot(`the run has no ${field} column`, empty)
    if (column === "na") return subtaskNot(`the run's ${field} column holds NA (or nothing): the team did not take part in ${what}`, empty)
    if (fileReason !== undefined) return subtaskNot(fileReason, empty)
    const own = errors(issues).filter((i) => i.field === field)
    if (own.length > 0) return subtaskNot(firstErrorReason(own), empty)
    const built = build()
    return { status: "scored", reason: undefined, pairs: gold.pairs.length, ...built }
  }

  const goldRelatedness = gold.pairs.length > 0 && gold.pairs.every((p) => p.relatedness !== undefined && Number.isFinite(p.relatedness))
  const goldEntailment = gold.pairs.length > 0 && gold.pairs.every((p) => p.entailment !== undefined)
  const relatedness = subtask(run.relatedness, Sick.RELATEDNESS, "relatedness", goldRelatedness, EMPTY, () => {
    const n = gold.pairs.length
    const x = new Float64Array(n)
    const y = sickGold(gold).relatedness
    let outside = 0
    let first: Sick.SickRunRow | undefined
    for (let i = 0; i < n; i++) {
      const row = rowOf(i)
      x[i] = row.relatedness!
      if (x[i] < edition.scale.min || x[i] > edition.scale.max) {
        outside++
        if (first === undefined || row.line < first.line) first = row
      }
    }
    if (first !== undefined) issues.push(outOfScale(edition, path, outside, n, first.line, first.relatedness!, Sick.RELATEDNESS))
    return { run: x, gold: y }
  })
  const entailment = subtask(run.entailment, Sick.ENTAILMENT, "entailment", goldEntailment, NO_LABELS, () => ({
    run: gold.pairs.map((_, i) => rowOf(i).entailment!),
    gold: sickGold(gold).entailment
  }))
  return { file: path, relatedness, entailment, issues }
}

// ---------------------------------------------------------------------------------------------
// A whole run
// ---------------------------------------------------------------------------------------------

/**
 * Validate a run against the edition and its gold. Never throws: everything that keeps
 * a dataset or subtask from being scored is an issue, and a run with nothing scorable is `failed`.
 * Run files that match no dataset are warned about (`unknown-file`); a dataset without a run file
 * is `missing-dataset` (it counts per the edition's rule), unless the run could not be loaded at all
 * (no files and a load error): its datasets are then `not-scored` and its load error says why.
 *
 * @example
 * ```ts
 * import { Gold, Registry, Submissions } from "@stseval/formats"
 * import { Validation } from "@stseval/scoring"
 *
 * declare const gold: Gold.Gold
 * declare const submission: Submissions.Submission
 * const v = Validation.validateRun(Registry.get("sts2017")!, gold, submission)
 * Validation.allIssues(v).map((i) => `${i.file}:${i.line}: ${i.message}`)
 * ```
 * @since 0.1.0
 */
export const validateRun = (edition: Edition, gold: Gold.Gold, submission: Submissions.Submission, options: ValidateOptions = {}): RunValidation => {
  const runIssues: Array<Issue.Issue> = [...submission.issues]
  const base = { edition: edition.id, kind: edition.family, path: submission.path, meta: submission.meta }
  const loadErrors = errors(submission.issues)
  if (edition.family === "sick") {
    const goldSick = gold.datasets.find((d): d is GoldSick => d.kind === "sick")
    const [file, ...others] = submission.files
    for (const o of others) {
      runIssues.push(
        Issue.warning("unknown-file", o.path, `a SICK run is one file; ${o.name} is ignored (${file.name} is scored)`, {
          expected: "one run file",
          found: o.name
        })
      )
    }
    const sick = checkSick(edition, goldSick, file, options)
    const scored = sick.relatedness.status === "scored" || sick.entailment.status === "scored"
    const failure = scored
      ? undefined
      : file === undefined && loadErrors.length > 0
        ? `the run could not be loaded: ${loadErrors[0].message}`
        : `neither subtask can be evaluated (relatedness: ${sick.relatedness.reason}; entailment: ${sick.entailment.reason})`
    return { ...base, sick, datasets: [], issues: runIssues, failed: !scored, failure }
  }
  const byDataset = new Map<string, Submissions.RunFile>()
  for (const f of submission.files) {
    const d = Registry.datasetOfRunFile(edition, f.name)
    if (d === undefined) {
      runIssues.push(
        Issue.warning("unknown-file", f.path, `${f.name} matches no dataset of ${edition.id}; it is ignored`, {
          expected: listing(edition.datasets.map((x) => x.run)),
          found: f.name
        })
      )
    } else if (byDataset.has(d.name)) {
      runIssues.push(
        Issue.warning("unknown-file", f.path, `${f.name} is a second file for dataset ${d.name}; it is ignored (${byDataset.get(d.name)!.name} is scored)`, {
          expected: "one file per dataset",
          found: f.name
        })
      )
    } else byDataset.set(d.name, f)
  }
  const goldByName = new Map<string, GoldScores>()
  for (const g of gold.datasets) if (g.kind === "scores") goldByName.set(g.name, g)
  // A run that could not be loaded (a link out of the folder, an unusable run.json) may well have
  // had every file: its load error says why nothing is scored, not a "no file" warning per dataset.
  const unloaded = submission.files.length === 0 && loadErrors.length > 0
  const datasets = edition.datasets.map((d) => {
    const check = checkStsDataset(edition, d, goldByName.get(d.name), byDataset.get(d.name), submission.kind === "file" ? undefined : submission.path)
    return unloaded && check.status === "missing" ? { ...check, status: "not-scored" as const, reason: "the run could not be loaded", issues: [] } : check
  })
  const scored = datasets.filter((d) => d.status === "scored").length
  const failure =
    scored > 0
      ? undefined
      : submission.files.length === 0 && loadErrors.length > 0
        ? `the run could not be loaded: ${loadErrors[0].message}`
        : submission.files.length === 0
          ? "the run has no files"
          : byDataset.size === 0
            ? `no file of the run matches a dataset of ${edition.id} (expected ${listing(edition.datasets.map((x) => x.run))})`
            : `no dataset can be scored (${datasets
                .filter((d) => d.status === "not-scored")
                .map((d) => d.reason)
                .join("; ")})`
  return { ...base, sick: undefined, datasets, issues: runIssues, failed: scored === 0, failure }
}
