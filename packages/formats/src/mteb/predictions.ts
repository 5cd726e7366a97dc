/** MTEB's files: the per-pair predictions (`<task>_predictions.json`) and the results (`<task>.json`). */
import { Schema } from "effect"
import * as Issue from "../Issue.js"
import type { Parsed } from "../Issue.js"
import { firstProblem } from "../internal/schemaIssues.js"

const Scores = Schema.Array(Schema.Finite)

/**
 * One split's STS predictions, as MTEB's `AnySTSEvaluator` returns them. Fields MTEB may add later
 * are ignored.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 *
 * declare const file: Mteb.PredictionsFile
 * const scores: Mteb.StsPredictions = file.splits[0].scores
 * ```
 * @since 0.1.0
 */
export const StsPredictions = Schema.Struct({
  cosine_scores: Scores,
  manhattan_distances: Scores,
  euclidean_distances: Scores,
  similarity_scores: Schema.NullOr(Scores)
})
/** @since 0.1.0 */
export type StsPredictions = typeof StsPredictions.Type

/**
 * The `mteb_model_meta` entry.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 * import { Schema } from "effect"
 *
 * // MTEB's model_meta.json: which model, at which revision
 * const meta = Schema.decodeUnknownSync(Mteb.ModelMeta)({ model_name: "sentence-transformers/all-MiniLM-L6-v2", revision: "8b3219a" })
 * ```
 * @since 0.1.0
 */
export const ModelMeta = Schema.Struct({
  model_name: Schema.String.check(Schema.isMinLength(1)),
  revision: Schema.optionalKey(Schema.NullOr(Schema.String))
})

/**
 * The file as a whole: the model entry and, under every other key, a subset's splits.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 * import { Schema } from "effect"
 *
 * const json = Schema.decodeUnknownSync(Mteb.PredictionsJson)(JSON.parse('{"test": {}}'))
 * ```
 * @since 0.1.0
 */
export const PredictionsJson = Schema.Record(Schema.String, Schema.Unknown)

/**
 * The predictions of one split of an MTEB predictions file.
 *
 * @since 0.1.0
 */
export interface SplitPredictions {
  readonly subset: string
  readonly split: string
  readonly scores: StsPredictions
}

/**
 * A decoded `<task>_predictions.json`.
 *
 * @since 0.1.0
 */
export interface PredictionsFile {
  readonly file: string
  /** MTEB's task name, from the file name (`STS17_predictions.json` -> STS17) */
  readonly task: string
  readonly model: string
  readonly revision: string | undefined
  readonly splits: ReadonlyArray<SplitPredictions>
  /**
   * MTEB's results file of the same task beside the predictions (`<task>.json`), when `read` found
   * one: the figures MTEB computed from these very predictions, which the import must reproduce
   */
  readonly results?: ResultsFile | undefined
}

/**
 * The file-name suffix MTEB gives predictions.
 *
 * @since 0.1.0
 */
export const SUFFIX = "_predictions.json"

// ---------------------------------------------------------------------------------------------
// MTEB's results file (`<task>.json`)
// ---------------------------------------------------------------------------------------------

/**
 * One subset's scores in MTEB's results file. MTEB writes `TaskResult.model_dump()` with every score
 * rounded to 6 decimals (`TaskResult.to_disk`, `_round_scores(..., 6)`, mteb/results/task_result.py
 * at v2.20.0-7-ga905523d); each entry is the `STSMetrics` of `AbsTaskSTS._calculate_scores`
 * (mteb/abstasks/sts.py: `cosine_spearman` = `scipy.stats.spearmanr(normalised gold,
 * cosine_scores)`; `spearman` the model's similarity, `manhattan_spearman`, `euclidean_spearman`
 * the negated distances), plus `main_score` (`AbsTask._evaluate_subset` via
 * `scores["main_score"] = scores[self.metadata.main_score]`, mteb/abstasks/abstask.py: for
 * STSBenchmark, STS17 and SemRel24STS `main_score="cosine_spearman"`), `hf_subset` and `languages`
 * (`TaskResult.from_task_results`). Other fields are ignored.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 *
 * declare const results: Mteb.ResultsFile
 * const en: Mteb.SubsetScores | undefined = results.scores["test"]?.find((s) => s.hf_subset === "en-en")
 * en?.main_score // MTEB's cosine Spearman of the subset
 * ```
 * @since 0.3.0
 */
export const SubsetScores = Schema.Struct({
  hf_subset: Schema.String,
  main_score: Schema.Finite,
  languages: Schema.optionalKey(Schema.Array(Schema.String)),
  spearman: Schema.optionalKey(Schema.Finite),
  cosine_spearman: Schema.optionalKey(Schema.Finite),
  manhattan_spearman: Schema.optionalKey(Schema.Finite),
  euclidean_spearman: Schema.optionalKey(Schema.Finite)
})
/** @since 0.3.0 */
export type SubsetScores = typeof SubsetScores.Type

/**
 * MTEB's results file of one task, `<task name>.json` (`ResultCache` writes it as
 * `<model>/<revision>/<task name>.json`, mteb/cache/result_cache.py; `TaskResult`: `task_name`,
 * `scores`: split -> a list of one entry per subset).
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 * import { Schema } from "effect"
 *
 * const results = Schema.decodeUnknownSync(Mteb.ResultsFile)({
 *   task_name: "STSBenchmark",
 *   scores: { test: [{ hf_subset: "default", main_score: 0.82, cosine_spearman: 0.82, languages: ["eng-Latn"] }] }
 * })
 * ```
 * @since 0.3.0
 */
export const ResultsFile = Schema.Struct({
  task_name: Schema.String,
  mteb_version: Schema.optionalKey(Schema.NullOr(Schema.String)),
  scores: Schema.Record(Schema.String, Schema.Array(SubsetScores))
})
/** @since 0.3.0 */
export type ResultsFile = typeof ResultsFile.Type

const decodeResults = Schema.decodeUnknownResult(ResultsFile)

/**
 * Decode MTEB's results file (`<task>.json`); an error naming the field when it is not one.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 *
 * declare const text: string // STSBenchmark.json, beside STSBenchmark_predictions.json
 * const { value, issues } = Mteb.parseResults(text, "STSBenchmark.json")
 * ```
 * @since 0.3.0
 */
export const parseResults = (text: string, file: string): Parsed<ResultsFile | undefined> => {
  let json: unknown
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""))
  } catch (e) {
    return { value: undefined, issues: [Issue.error("bad-json", file, `MTEB's results file is not valid JSON: ${(e as Error).message}`)] }
  }
  const decoded = decodeResults(json)
  if (decoded._tag === "Failure") {
    const p = firstProblem(decoded.failure)
    return {
      value: undefined,
      issues: [
        Issue.error("bad-json", file, `not MTEB's results file of a task (${p.field !== undefined ? `${p.field}: ` : ""}${p.message})`, {
          ...(p.field !== undefined ? { field: p.field } : {}),
          expected: '{ "task_name", "scores": { "<split>": [{ "hf_subset", "main_score", "cosine_spearman", "languages" }] } }'
        })
      ]
    }
  }
  return { value: decoded.success, issues: [] }
}

// JSON.parse holds a number that is not a small integer as a heap object of about 22 bytes: a
// 240 MB file of short numbers ("0.1,") took 4.13 GB. MTEB's largest STS task (STS22, SICK-R, the
// multilingual STS Benchmark) writes a few hundred thousand; a file with more is not one, and is
// refused after a count that holds nothing (the peak stays near the text's own size).
const MAX_PREDICTIONS = 4_000_000

/**
 * How many numbers a JSON text holds, outside strings, counting up to `MAX_PREDICTIONS + 1` (then
 * it stops): a number starts with a digit or a minus where a value starts. Syntax is left to
 * JSON.parse.
 */
const countNumbers = (text: string): number => {
  let n = 0
  let inString = false
  let valueStarts = true
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // a backslash escapes the next character
      else if (c === 34) inString = false
      continue
    }
    if (c === 34) {
      inString = true
      valueStarts = false
    } else if (c === 91 || c === 44 || c === 58) {
      // [ , : : a value may start
      valueStarts = true
    } else if (valueStarts && (c === 45 || (c >= 48 && c <= 57))) {
      valueStarts = false
      if (++n > MAX_PREDICTIONS) return n
    } else if (c !== 32 && c !== 10 && c !== 13 && c !== 9) {
      valueStarts = false
    }
  }
  return n
}

const decodeMeta = Schema.decodeUnknownResult(ModelMeta)
const decodeSplit = Schema.decodeUnknownResult(StsPredictions)

const bad = (file: string, message: string, field?: string) =>
  Issue.error("bad-json", file, message, {
    ...(field !== undefined ? { field } : {}),
    expected: '{ "mteb_model_meta": { "model_name", "revision" }, "<subset>": { "<split>": { "cosine_scores": [...], ... } } }'
  })

/**
 * Decode a predictions file's text. The task name comes from `file`'s name. A file that is not
 * JSON (Python's `json.dump` writes `NaN` for a NaN, which JSON does not allow), has no model
 * entry, or whose split is not an STS prediction (other task types have other shapes) is an error
 * naming the field; `undefined` then.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 *
 * declare const text: string
 * const { value, issues } = Mteb.parse(text, "STS17_predictions.json")
 * ```
 * @since 0.1.0
 */
export const parse = (text: string, file: string): Parsed<PredictionsFile | undefined> => {
  const base = file.split(/[\\/]/).pop() ?? file
  const task = base.endsWith(SUFFIX) ? base.slice(0, -SUFFIX.length) : base.replace(/\.json$/i, "")
  const count = countNumbers(text)
  if (count > MAX_PREDICTIONS) {
    return {
      value: undefined,
      issues: [
        bad(
          file,
          `the file holds more than ${MAX_PREDICTIONS.toLocaleString("en")} numbers; MTEB's STS predictions have a few hundred thousand at most (four lists per split), so it was not read`
        )
      ]
    }
  }
  let json: unknown
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""))
  } catch (e) {
    const nan = /(?<![\w"])-?(NaN|Infinity)(?![\w"])/.test(text)
    return {
      value: undefined,
      issues: [
        bad(
          file,
          nan
            ? "the file holds NaN or Infinity (Python's json.dump writes them; JSON has no such numbers): the model produced non-finite similarities"
            : `the file is not valid JSON: ${(e as Error).message}`
        )
      ]
    }
  }
  const root = Schema.decodeUnknownResult(PredictionsJson)(json)
  if (root._tag === "Failure") return { value: undefined, issues: [bad(file, "the file is not a JSON object")] }
  const meta = decodeMeta(root.success["mteb_model_meta"])
  if (meta._tag === "Failure") {
    const p = firstProblem(meta.failure)
    return { value: undefined, issues: [bad(file, `mteb_model_meta: ${p.message}`, `mteb_model_meta${p.field !== undefined ? `.${p.field}` : ""}`)] }
  }
  const splits: Array<SplitPredictions> = []
  const issues: Array<Issue.Issue> = []
  for (const [subset, value] of Object.entries(root.success)) {
    if (subset === "mteb_model_meta") continue
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      issues.push(bad(file, `subset ${subset} is not an object of splits`, subset))
      continue
    }
    for (const [split, predictions] of Object.entries(value)) {
      const decoded = decodeSplit(predictions)
      if (decoded._tag === "Failure") {
        const p = firstProblem(decoded.failure)
        issues.push(bad(file, `${subset}.${split} is not an STS prediction (${p.field !== undefined ? `${p.field}: ` : ""}${p.message}); only STS tasks can be imported`, `${subset}.${split}`))
        continue
      }
      const s = decoded.success
      const n = s.cosine_scores.length
      const lengths = [s.manhattan_distances.length, s.euclidean_distances.length, ...(s.similarity_scores !== null ? [s.similarity_scores.length] : [])]
      if (lengths.some((l) => l !== n)) {
        issues.push(bad(file, `${subset}.${split}: the score lists have different lengths (${[n, ...lengths].join(", ")})`, `${subset}.${split}`))
        continue
      }
      splits.push({ subset, split, scores: s })
    }
  }
  return { value: { file, task, model: meta.success.model_name, revision: meta.success.revision ?? undefined, splits }, issues }
}

/**
 * Which of MTEB's similarity lists becomes the run.
 *
 * @since 0.1.0
 */
export type ScoreKind = "cosine" | "similarity" | "manhattan" | "euclidean"

/**
 * The scores of a split: `cosine` (default; MTEB's main STS score is their Spearman), `similarity`
 * (the model's own similarity function; MTEB falls back to cosine when it is null, and so does this),
 * or the negated `manhattan` / `euclidean` distances.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 *
 * declare const predictions: Mteb.StsPredictions
 * const cosine = Mteb.scoresOf(predictions, "cosine") // distances become similarities, larger = more similar
 * ```
 * @since 0.1.0
 */
export const scoresOf = (p: StsPredictions, kind: ScoreKind = "cosine"): ReadonlyArray<number> =>
  kind === "similarity" ? p.similarity_scores ?? p.cosine_scores
  : kind === "manhattan" ? p.manhattan_distances
  : kind === "euclidean" ? p.euclidean_distances
  : p.cosine_scores

