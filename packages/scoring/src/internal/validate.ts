/**
 * Validation of one run against an edition and its gold (`Validation` has the types): pure
 * functions over bytes already in memory. Only the engine calls it, through
 * `Engine.scoreSubmission`.
 *
 * @internal
 */
import { Format, Issue, Registry } from "@stseval/formats"
import type { Gold, Submissions } from "@stseval/formats"
import { MetricValue, Metrics, Pearson } from "@stseval/metrics"
import type { Aligned, DatasetCheck, DatasetStatus, RunValidation, ValidateOptions } from "../Validation.js"
import { leastPairsOf, perDataset } from "./edition.js"
import type { DatasetSpec, Edition } from "./edition.js"
import { errors, listing, plural } from "./issues.js"

/** Every issue of a validation, run-level first, then per dataset in the edition's order. */
export const allIssues = (v: RunValidation): ReadonlyArray<Issue.Issue> => [...v.issues, ...v.datasets.flatMap((d) => d.issues)]

// ---------------------------------------------------------------------------------------------
// Aligned gold, shared by every run
// ---------------------------------------------------------------------------------------------

/** Which gold records a dataset scores: those below `end`, of the dataset, with a gold value. */
interface Selection {
  readonly values: Float64Array | ReadonlyArray<string>
  readonly rows: Int32Array | undefined
  readonly end: number
}

const isAnnotated = (values: Float64Array | ReadonlyArray<string>, i: number): boolean =>
  values instanceof Float64Array ? !Number.isNaN(values[i]) : values[i] !== ""

/** The table records of a selection, in file order. */
const selected = (s: Selection): Int32Array => {
  const out: Array<number> = []
  if (s.rows === undefined) {
    for (let i = 0; i < s.end; i++) if (isAnnotated(s.values, i)) out.push(i)
  } else {
    for (const i of s.rows) if (i < s.end && isAnnotated(s.values, i)) out.push(i)
  }
  return Int32Array.from(out)
}

// Every run of a dataset is scored on the same gold pairs: one aligned gold (and its records) per
// gold column, dataset and scored range, shared by all runs, instead of one copy per run.
interface Shared {
  readonly records: Int32Array
  readonly gold: Float64Array | ReadonlyArray<string>
  /** records are 0, 1, 2, ...: every record below the end scored (no blank gold line, no rows) */
  readonly identity: boolean
}
const sharedCache = new WeakMap<object, Map<string, Shared>>()
const sharedGold = (s: Selection, flip: ((v: number) => number) | undefined): Shared => {
  let byKey = sharedCache.get(s.values)
  if (byKey === undefined) sharedCache.set(s.values, (byKey = new Map<string, Shared>()))
  // rows are one array per gold dataset view, so a numbered key per rows array is enough
  const key = `${s.end}|${s.rows === undefined ? "all" : rowsKey(s.rows)}|${flip === undefined ? "" : "flip"}`
  let shared = byKey.get(key)
  if (shared === undefined) {
    const records = selected(s)
    const values = s.values
    const gold =
      values instanceof Float64Array
        ? Float64Array.from(records, (i) => (flip === undefined ? values[i] : flip(values[i])))
        : Array.from(records, (i) => values[i])
    byKey.set(key, (shared = { records, gold, identity: records.every((r, k) => r === k) }))
  }
  return shared
}
const rowsIds = new WeakMap<Int32Array, number>()
let nextRowsId = 0
const rowsKey = (rows: Int32Array): number => {
  let id = rowsIds.get(rows)
  if (id === undefined) rowsIds.set(rows, (id = nextRowsId++))
  return id
}

// ---------------------------------------------------------------------------------------------
// Reasons
// ---------------------------------------------------------------------------------------------

/**
 * Why something is not scored: the first error, and how many there are in all (`Issue.count`: a
 * capped list stands for every bad line behind it). `what` prefixes it when the file serves several
 * datasets, so that the reason says it is the file's ("the file is malformed").
 */
const firstErrorReason = (errs: ReadonlyArray<Issue.Issue>, what?: string): string => {
  const first = errs[0]
  const total = Issue.count(errs)
  const reason = total === 1 ? first.message : `${first.message} (the first of ${total} errors)`
  return what === undefined ? reason : `${what}: ${reason}`
}

const ALIGNMENT_CODES: ReadonlyArray<string> = ["missing-pair", "unknown-pair", "duplicate-pair"]
/** Errors after which nothing of the file was read: matching it to the gold would only add noise. */
const UNREAD_CODES: ReadonlyArray<string> = ["missing-header", "bad-header", "bad-csv"]

/** What a missing dataset means under the edition's official rule, for the message. */
const missingConsequence = (edition: Edition, dataset: DatasetSpec): string => {
  if (perDataset(edition)) return "it is not ranked in that dataset (runs are ranked in each dataset on its own)"
  const ranking = Registry.rankingOfDataset(edition, dataset)
  const rule = ranking.aggregate
  if (Registry.datasetsOf(edition, ranking).length === 1 || rule === "single") return "the run cannot be scored"
  if (rule === "pooled" || rule === "allnrm") return `the run gets no official score (${rule} needs every dataset)`
  const metric = Metrics.getOrThrow(ranking.metric)
  return edition.missingDataset === "zero"
    ? `it counts as ${metric.symbol} = ${metric.missingValue ?? 0} in the official ${rule === "wmean" ? "weighted mean" : "mean"}`
    : "the run gets no official score, which needs every dataset"
}

const notScored = (
  dataset: string,
  status: Exclude<DatasetStatus, "scored">,
  reason: string,
  file: string | undefined,
  weight: number,
  runLines: number,
  issues: ReadonlyArray<Issue.Issue>
): DatasetCheck => ({ dataset, status, reason, file, weight, pairs: 0, runLines, linesScored: undefined, aligned: undefined, issues })

const outOfScale = (edition: Edition, path: string, outside: number, pairs: number, line: number, value: number, field: string | undefined) =>
  Issue.warning(
    "out-of-scale",
    path,
    `${plural(outside, "score")} of ${pairs} lie outside the edition's scale ${edition.scale.min}-${edition.scale.max} (the first on line ${line}: ${value}); correlations are unaffected, but an error such as MSE is computed on these raw values`,
    { line, ...(field !== undefined ? { field } : {}), expected: `${edition.scale.min} to ${edition.scale.max}`, found: String(value) }
  )

/** The fewest pairs on which a negative correlation is taken as a sign of a reversed run. */
const REVERSED_LEAST_PAIRS = 10
/** The Pearson correlation with the gold at or below which a run looks reversed. */
const REVERSED_CORRELATION = -0.5

/**
 * A hint that a run's direction looks reversed: every score negative where the scale is not
 * (similarities negated, or distances), or a strongly negative correlation with the gold (a
 * dissimilarity, or 5 - score). The figures stay as computed: the hint says what to check.
 */
const reversedScale = (
  edition: Edition,
  path: string,
  gold: Float64Array,
  run: Float64Array,
  allOutside: boolean
): { readonly issue: Issue.Issue | undefined; readonly pearson?: MetricValue.MetricValue } => {
  const { min, max } = edition.scale
  const fix = `write higher scores for more similar pairs, on the scale ${min}-${max}${edition.scale.direction === "descending" ? " (this edition's scale is descending: lower is more similar)" : ""}`
  if (allOutside && min >= 0 && run.length > 0 && run.every((x) => x < 0)) {
    const issue = Issue.warning("reversed-scale", path, `every score is negative: the direction looks reversed (similarities negated, or distances?); ${fix}`, {
      expected: `${min} to ${max}`,
      found: "every score negative"
    })
    return { issue }
  }
  if (run.length < REVERSED_LEAST_PAIRS) return { issue: undefined }
  // kept with the check (`DatasetCheck.figures`): the engine's thread then need not compute it again
  const pearson = Pearson.pearson(gold, run)
  const r = MetricValue.getOrNaN(pearson)
  if (!(r <= REVERSED_CORRELATION)) return { issue: undefined, pearson }
  const issue = Issue.warning("reversed-scale", path, `the scores correlate strongly negatively with the gold (Pearson r = ${r.toFixed(3)}): the direction looks reversed; ${fix}`, {
    expected: "a positive correlation",
    found: `r = ${r.toFixed(3)}`
  })
  return { issue, pearson }
}

// ---------------------------------------------------------------------------------------------
// One run file and the datasets it serves
// ---------------------------------------------------------------------------------------------

/** The datasets one run file serves, against one gold file. */
interface Unit {
  readonly specs: ReadonlyArray<DatasetSpec>
  readonly file: Submissions.RunFile | undefined
}

/** A gold dataset that can be scored against, or why it cannot (a finished `DatasetCheck`). */
const goldCheck = (edition: Edition, spec: DatasetSpec, gold: Gold.GoldDataset | undefined, file: Submissions.RunFile | undefined): DatasetCheck | undefined => {
  const name = spec.name
  if (gold === undefined && spec.goldNotPublic !== undefined) {
    // not the run's fault: listed with the reason, never an error
    const issues = file === undefined ? [] : [Issue.info("not-public", file.path, `${name} cannot be scored: ${spec.goldNotPublic}`, { field: name })]
    return notScored(name, "no-gold", spec.goldNotPublic, file?.path, 0, 0, issues)
  }
  if (gold === undefined && file === undefined && perDataset(edition)) {
    return notScored(name, "no-gold", `no gold was loaded for dataset ${name}, and the run has no file for it`, undefined, 0, 0, [])
  }
  if (gold === undefined) {
    const path = file?.path ?? spec.run
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
  return undefined
}

/** Annotated gold pairs of a dataset within the scored lines: what it weighs in a weighted mean. */
/** `weightOf`'s count, per gold dataset and lines scored: the same for every run (a loop over the gold each). */
const weights = new WeakMap<Gold.GoldDataset, Map<number | undefined, number>>()

const weightOf = (spec: DatasetSpec, gold: Gold.GoldDataset): number => {
  let byLines = weights.get(gold)
  if (byLines === undefined) weights.set(gold, (byLines = new Map<number | undefined, number>()))
  let weight = byLines.get(spec.scoredLines)
  if (weight === undefined) byLines.set(spec.scoredLines, (weight = countWeight(spec, gold)))
  return weight
}

const countWeight = (spec: DatasetSpec, gold: Gold.GoldDataset): number => {
  const end = spec.scoredLines !== undefined ? Math.min(spec.scoredLines, gold.table.length) : gold.table.length
  const values = gold.kind === "scores" ? gold.scores : gold.labels
  if (gold.rows === undefined) {
    let n = 0
    for (let i = 0; i < Math.min(end, values.length); i++) if (isAnnotated(values, i)) n++
    return n
  }
  let n = 0
  for (let k = 0; k < gold.rows.length; k++) if (gold.rows[k] < end && isAnnotated(values, k)) n++
  return n
}

const checkUnit = (
  edition: Edition,
  unit: Unit,
  goldOf: (name: string) => Gold.GoldDataset | undefined,
  runPath: string | undefined,
  options: ValidateOptions
): ReadonlyArray<DatasetCheck> => {
  const { file } = unit
  const label = listing(unit.specs.map((s) => s.name))
  const result = new Map<string, DatasetCheck>()
  const pending: Array<{ spec: DatasetSpec; gold: Gold.GoldDataset }> = []
  for (const spec of unit.specs) {
    const gold = goldOf(spec.name)
    const done = goldCheck(edition, spec, gold, file)
    if (done !== undefined) result.set(spec.name, done)
    else pending.push({ spec, gold: gold! })
  }
  const ordered = () => unit.specs.map((s) => result.get(s.name)!)
  if (pending.length === 0) return ordered()
  if (file === undefined) {
    const first = pending[0].spec
    const expected = first.run
    const several = pending.length > 1
    const message = several
      ? `the run has no file to score (expected ${expected}, serving ${listing(pending.map((p) => p.spec.name))})`
      : `the run has no file for dataset ${first.name} (expected ${expected}); ${missingConsequence(edition, first)}`
    const where = runPath === undefined ? expected : runPath.endsWith(".zip") ? `${runPath}!${expected}` : `${runPath}/${expected}`
    // ranked per dataset (SemRel): a run enters the datasets it wants, so an absent one is no fault
    const single = edition.submission === "file" || Registry.datasetsOf(edition, Registry.rankingOfDataset(edition, first)).length === 1
    const severity = single ? Issue.error : perDataset(edition) ? Issue.info : Issue.warning
    const issue = severity("missing-dataset", where, message, { expected, found: "no such file" })
    pending.forEach(({ spec, gold }, k) =>
      result.set(spec.name, notScored(spec.name, "missing", several ? "the run has no file" : `the run has no file for dataset ${spec.name}`, undefined, weightOf(spec, gold), 0, k === 0 ? [issue] : []))
    )
    return ordered()
  }
  // Read the file with the format of its datasets, and align it with their gold file once.
  const path = file.path
  const format = Registry.formatOf(edition, pending[0].spec)
  const goldTable = pending[0].gold.table
  const first = pending[0].spec
  const context: Format.Context = {
    label,
    lenient: options.lenient,
    goldLength: goldTable.length,
    scoredLines: first.scoredLines,
    inputLines: first.inputLines
  }
  const read = Format.readRun(format, file.bytes, path, context)
  const table = read.value
  const fileIssues: Array<Issue.Issue> = [...read.issues]
  const unread = fileIssues.some((i) => i.severity === "error" && UNREAD_CODES.includes(i.code)) || (table.length === 0 && Issue.hasErrors(fileIssues))
  const alignment = unread ? undefined : Format.align(format, goldTable, table, context)
  if (alignment !== undefined) fileIssues.push(...alignment.issues)
  const columnFields = new Set(format.columns.map((c) => c.field))
  const fileErrors = errors(fileIssues).filter((i) => i.field === undefined || !columnFields.has(i.field))
  const several = pending.length > 1
  const fileReason =
    fileErrors.length === 0
      ? undefined
      : firstErrorReason(
          fileErrors,
          ALIGNMENT_CODES.includes(fileErrors[0].code) ? "the run's pair IDs do not match the gold" : several ? "the file is malformed" : undefined
        )
  const flip = edition.scale.direction === "descending" ? (v: number) => edition.scale.min + edition.scale.max - v : undefined
  // the reader's value arrays a dataset took as its run's scores (no other may: see below)
  const taken = new Set<Float64Array>()
  pending.forEach(({ spec, gold }, k) => {
    const own: Array<Issue.Issue> = k === 0 ? fileIssues : []
    const name = spec.name
    const weight = weightOf(spec, gold)
    const column = gold.column
    const data = table.columns[column.name] ?? { kind: "absent" }
    const not = (reason: string) => result.set(name, notScored(name, "not-scored", reason, path, weight, table.length, own))
    // a file refused before any row was read (too large, not text) has no columns to speak of: its error says why
    if (data.kind === "absent") return not(table.length === 0 && fileReason !== undefined ? fileReason : `the run has no ${column.field} column`)
    if (data.kind === "na") return not(`the run's ${column.field} column holds NA (or nothing): the team did not take part in ${name}`)
    if (fileReason !== undefined) return not(fileReason)
    const columnErrors = errors(fileIssues).filter((i) => i.field === column.field)
    if (columnErrors.length > 0) return not(firstErrorReason(columnErrors))
    if (alignment === undefined || data.kind !== column.kind) return not(`the run's ${column.field} values could not be read`)
    const { end, runIndex, linesScored, missing } = alignment.value
    if (missing !== undefined && gold.rows !== undefined) {
      // a file whose records name their dataset: a dataset without any record in the run is one
      // it did not enter; one with some records but not all is an error of that dataset only
      const absent = new Set(missing)
      const lacking = Array.from(gold.rows).filter((i) => absent.has(i))
      if (lacking.length === gold.rows.length && gold.rows.length > 0) {
        const message = `the run has no record of dataset ${name}; ${missingConsequence(edition, spec)}`
        const severity = perDataset(edition) ? Issue.info : Registry.datasetsOf(edition, Registry.rankingOfDataset(edition, spec)).length === 1 ? Issue.error : Issue.warning
        const issue = severity("missing-dataset", path, message, { field: name, expected: `the pairs of ${name}`, found: "none" })
        return result.set(name, notScored(name, "missing", `the run has no record of dataset ${name}`, undefined, weight, table.length, [...own, issue]))
      }
      if (lacking.length > 0) {
        const ids = gold.table.ids ?? []
        const issue = Issue.error(
          "missing-pair",
          path,
          `${plural(lacking.length, "pair")} of dataset ${name} (of ${gold.rows.length}) have no line in the run (the first: ${lacking.slice(0, 3).map((i) => Issue.excerpt(ids[i] ?? "")).join(", ")})`,
          { field: name, expected: `a line for every pair of ${name}`, found: `${gold.rows.length - lacking.length} of ${gold.rows.length}` }
        )
        return result.set(name, notScored(name, "not-scored", issue.message, path, weight, table.length, [...own, issue]))
      }
    }
    const goldValues = gold.table.columns[column.name]
    if (goldValues === undefined || (goldValues.kind !== "scores" && goldValues.kind !== "labels")) return not(`the gold has no ${column.field} values`)
    const shared = sharedGold({ values: goldValues.values, rows: gold.rows, end }, flip)
    const { records } = shared
    const pairs = records.length
    const at = (i: number) => (runIndex === undefined ? i : runIndex[i])
    const dataset: Array<Issue.Issue> = []
    let aligned: Aligned
    let figures: DatasetCheck["figures"]
    if (data.kind === "scores") {
      const values = data.values
      const plain = shared.identity && runIndex === undefined && flip === undefined
      // the common case with exactly the gold's pairs: the values the reader made for this run
      // are the run's scores, taken as they are (a copy was 22 MB of 2,000 STS-B runs to collect),
      // unless another dataset of the file took them already
      const own = plain && values.length === pairs && !taken.has(values)
      if (own) taken.add(values)
      const run = own ? values : new Float64Array(pairs)
      const confidence = table.confidence !== undefined ? new Float64Array(pairs) : undefined
      let outside = 0
      let firstOutside = -1
      const { min, max } = edition.scale
      if (plain && values.length >= pairs && (table.confidence === undefined || table.confidence.length >= pairs)) {
        // the common case (a run of every gold line, in order, on an ascending scale): the run's
        // first values as they are, copied at once, and a loop that only looks for those out of
        // scale (the general loop's result, a third of its time on 2,000 STS-B runs)
        if (!own) run.set(values.subarray(0, pairs))
        if (confidence !== undefined) confidence.set(table.confidence!.subarray(0, pairs))
        for (let r = 0; r < pairs; r++) {
          const x = values[r]
          if (x < min || x > max) {
            outside++
            if (firstOutside === -1 || table.lines[r] < table.lines[firstOutside]) firstOutside = r
          }
        }
      } else {
        for (let k = 0; k < pairs; k++) {
          const r = runIndex === undefined ? records[k] : runIndex[records[k]]
          const x = values[r]
          if (x < min || x > max) {
            outside++
            if (firstOutside === -1 || table.lines[r] < table.lines[firstOutside]) firstOutside = r
          }
          run[k] = flip === undefined ? x : flip(x)
          if (confidence !== undefined) confidence[k] = table.confidence![r]
        }
      }
      if (outside > 0) {
        dataset.push(outOfScale(edition, path, outside, pairs, table.lines[firstOutside], values[firstOutside], format.columns.length > 1 ? column.field : undefined))
      }
      aligned = { kind: "scores", gold: shared.gold as Float64Array, run, ...(confidence !== undefined ? { confidence } : {}) }
      const reversed = reversedScale(edition, path, shared.gold as Float64Array, run, outside === pairs)
      if (reversed.issue !== undefined) dataset.push(reversed.issue)
      if (reversed.pearson !== undefined) figures = { [Pearson.metric.name]: reversed.pearson }
    } else {
      const values = data.values
      const run = Array.from(records, (i) => values[at(i)])
      const gl = shared.gold as ReadonlyArray<string>
      aligned = { kind: "labels", gold: gl, run, labels: column.labels ?? [...new Set([...gl, ...run])].sort() }
    }
    // pairs the gold left unannotated within the scored range (a blank STS 2015/16 gold line)
    const candidates = gold.rows === undefined ? end : gold.rows.filter((i) => i < end).length
    if (pairs < candidates) {
      dataset.push(
        Issue.info("not-annotated", path, `${pairs} of ${candidates} pairs annotated; ${pairs} scored (a blank gold line is a pair that was not annotated)`, {
          expected: `${candidates} annotated pairs`,
          found: `${pairs} annotated`
        })
      )
    }
    const least = leastPairsOf(Registry.rankingOfDataset(edition, spec))
    if (pairs < least) {
      // the official scorers print r = +-1 for 2 pairs (and fail on 1): a figure that says nothing,
      // and one no resample could reproduce; so the dataset is invalid, as docs/scoring.md says
      const issue = Issue.error(
        "too-few-pairs",
        path,
        `dataset ${name} has ${plural(pairs, "annotated pair")} in the gold (${gold.file}) within the lines scored: its ${Registry.rankingOfDataset(edition, spec).metric} needs at least ${least} (a correlation of 2 points is always +1 or -1), so ${name} is not scored`,
        { field: name, expected: `at least ${least} annotated pairs`, found: String(pairs) }
      )
      return result.set(name, notScored(name, "not-scored", issue.message, path, weight, table.length, [...own, ...dataset, issue]))
    }
    result.set(name, {
      dataset: name,
      status: "scored",
      reason: undefined,
      file: path,
      weight,
      pairs,
      runLines: table.length,
      linesScored,
      aligned,
      ...(figures !== undefined ? { figures } : {}),
      issues: [...own, ...dataset]
    })
  })
  return ordered()
}

// ---------------------------------------------------------------------------------------------
// A whole run
// ---------------------------------------------------------------------------------------------

/** The run files of a run, by the dataset each serves (a `file` submission's one file serves all). */
const filesByDataset = (edition: Edition, submission: Submissions.Submission, runIssues: Array<Issue.Issue>): ReadonlyMap<string, Submissions.RunFile> => {
  const byDataset = new Map<string, Submissions.RunFile>()
  if (edition.submission === "file") {
    const [file, ...others] = submission.files
    for (const o of others) {
      runIssues.push(
        Issue.warning("unknown-file", o.path, `a run of ${edition.id} is one file; ${o.name} is ignored (${file.name} is scored)`, {
          expected: "one run file",
          found: o.name
        })
      )
    }
    if (file !== undefined) for (const d of edition.datasets) byDataset.set(d.name, file)
    return byDataset
  }
  const taken = new Map<string, string>()
  for (const f of submission.files) {
    const d = Registry.datasetOfRunFile(edition, f.name)
    if (d === undefined) {
      const suggestion = Registry.closestRunFile(edition, f.name)
      runIssues.push(
        suggestion !== undefined
          ? Issue.error("unknown-file", f.path, `${f.name} matches no dataset of ${edition.id}; did you mean ${suggestion}?`, {
              expected: suggestion,
              found: f.name
            })
          : Issue.warning("unknown-file", f.path, `${f.name} matches no dataset of ${edition.id}; it is ignored`, {
              expected: listing(edition.datasets.map((x) => x.run)),
              found: f.name
            })
      )
    } else if (taken.has(d.run)) {
      runIssues.push(
        Issue.warning("unknown-file", f.path, `${f.name} is a second file for dataset ${d.name}; it is ignored (${taken.get(d.run)} is scored)`, {
          expected: "one file per dataset",
          found: f.name
        })
      )
    } else {
      taken.set(d.run, f.name)
      // every dataset read from this run file (datasets sharing a file name share the file)
      for (const x of edition.datasets) if (x.run === d.run) byDataset.set(x.name, f)
    }
  }
  return byDataset
}

/**
 * Validate a run against the edition and its gold. Never throws: everything that keeps a dataset
 * from being scored is an issue, and a run with nothing scorable is `failed`. A run folder's file
 * that matches no dataset is an error when it looks like a misnamed dataset file (with the name it
 * was likely meant to have), else a warning (`unknown-file`); a dataset without a run file is
 * `missing-dataset` (it counts per the edition's rule), unless the run could not be loaded at all
 * (no files and a load error): its datasets are then `not-scored` and its load error says why.
 *
 * @since 0.1.0
 */
export const validateRun = (edition: Edition, gold: Gold.Gold, submission: Submissions.Submission, options: ValidateOptions = {}): RunValidation => {
  const runIssues: Array<Issue.Issue> = [...submission.issues]
  const loadErrors = errors(submission.issues)
  const byDataset = filesByDataset(edition, submission, runIssues)
  const goldByName = new Map<string, Gold.GoldDataset>()
  for (const g of gold.datasets) goldByName.set(g.name, g)
  // Datasets read from one run file against one gold file are checked together, in edition order.
  const units: Array<{ specs: Array<DatasetSpec>; file: Submissions.RunFile | undefined }> = []
  const unitOf = new Map<string, { specs: Array<DatasetSpec>; file: Submissions.RunFile | undefined }>()
  for (const spec of edition.datasets) {
    const file = byDataset.get(spec.name)
    const key = `${spec.gold}\u0000${spec.run}\u0000${Registry.formatOf(edition, spec).name}`
    let unit = unitOf.get(key)
    if (unit === undefined) {
      unit = { specs: [], file }
      unitOf.set(key, unit)
      units.push(unit)
    }
    unit.specs.push(spec)
  }
  const checks = new Map<string, DatasetCheck>()
  const runPath = submission.kind === "file" ? undefined : submission.path
  for (const unit of units) for (const c of checkUnit(edition, unit, (n) => goldByName.get(n), runPath, options)) checks.set(c.dataset, c)
  // A run that could not be loaded (a link out of the folder, an unusable run.json) may well have
  // had every file: its load error says why nothing is scored, not a "no file" warning per dataset.
  const unloaded = submission.files.length === 0 && loadErrors.length > 0
  const datasets = edition.datasets.map((d) => {
    const check = checks.get(d.name)!
    return unloaded && check.status === "missing" ? { ...check, status: "not-scored" as const, reason: "the run could not be loaded", issues: [] } : check
  })
  const scored = datasets.filter((d) => d.status === "scored").length
  /** Why no dataset was scored when the run's files match the edition's. */
  const nothingScored = () => {
    const notScored = datasets.filter((d) => d.status === "not-scored")
    // every dataset missing: a file whose records name their dataset (a declarative format's field) had none of them
    if (notScored.length === 0) return `the run holds nothing of ${listing(datasets.map((d) => d.dataset))}`
    const byReason = new Map<string, Array<string>>()
    for (const d of notScored) byReason.set(d.reason ?? "", [...(byReason.get(d.reason ?? "") ?? []), d.dataset])
    return `no dataset can be scored (${[...byReason].map(([reason, names]) => `${listing(names)}: ${reason}`).join("; ")})`
  }
  const failure =
    scored > 0
      ? undefined
      : submission.files.length === 0 && loadErrors.length > 0
        ? `the run could not be loaded: ${loadErrors[0].message}`
        : submission.files.length === 0
          ? "the run has no files"
          : byDataset.size === 0
            ? `no file of the run matches a dataset of ${edition.id} (expected ${listing([...new Set(edition.datasets.map((x) => x.run))])})`
            : nothingScored()
  return { edition: edition.id, path: submission.path, meta: submission.meta, datasets, issues: runIssues, failed: scored === 0, failure }
}

