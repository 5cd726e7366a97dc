/** A SemRel run matched to its gold by pair ID, with the organisers' `evaluation.py` checks. */
import * as Issue from "../Issue.js"
import type { Parsed } from "../Issue.js"
import { Collector } from "../internal/collect.js"
import { formatNumber } from "../internal/number.js"
import type { TextFile } from "../Text.js"
import { PRED_SCORE, parseRun } from "./files.js"
import type { GoldPairs, Matched, Prediction, SemRelRun } from "./files.js"
import { locate } from "./locate.js"

/**
 * Match a submission to its gold by pair ID, with `evaluation.py`'s checks: as many rows as gold
 * pairs ("different number of lines"), no pair ID the gold lacks ("invalid pair id"), none twice
 * ("repeated id"). Each is an error issue naming the line and the pair ID (capped per kind); a
 * gold pair without a prediction is an error too. With `scale`, predictions outside it are a
 * warning (Spearman and Pearson are unaffected). When any error is found the result is empty.
 *
 * @example
 * ```ts
 * import { SemRel, Text } from "@stseval/formats"
 *
 * const gold = { file: "eng_test_with_labels.csv", pairIds: ["eng-1"], scores: new Float64Array([0.25]) }
 * const run = SemRel.parseRun(Text.fromString("PairID,Pred_Score\neng-1,0.5\n", "pred_eng.csv").value).value
 * const { value, issues } = SemRel.match(gold, run, { scale: { min: 0, max: 1 } }) // unknown, repeated and missing ids are issues
 * ```
 * @since 0.1.0
 */
export const match = (
  gold: GoldPairs,
  run: SemRelRun,
  options: { readonly scale?: { readonly min: number; readonly max: number } } = {}
): Parsed<Matched> => {
  const { file } = run
  const issues = new Collector()
  const n = gold.pairIds.length
  const empty: Matched = { pairIds: [], run: new Float64Array(0), gold: new Float64Array(0) }
  const located = locate(gold.file, gold.pairIds, file, run.predictions.map((p) => p.pairId), Int32Array.from(run.predictions, (p) => p.line))
  for (const i of located.issues) issues.add(i)
  if (issues.hasErrors || run.predictions.some((p) => Number.isNaN(p.score))) return { value: empty, issues: issues.done() }
  const at = located.value
  const values = new Float64Array(n)
  let outside = 0
  let first: Prediction | undefined
  for (let i = 0; i < n; i++) {
    const p = run.predictions[at[i]]
    values[i] = p.score
    if (options.scale !== undefined && (p.score < options.scale.min || p.score > options.scale.max)) {
      outside++
      if (first === undefined || p.line < first.line) first = p
    }
  }
  if (first !== undefined && options.scale !== undefined) {
    issues.add(
      Issue.warning(
        "out-of-scale",
        file,
        `${outside} prediction${outside === 1 ? "" : "s"} of ${n} lie outside ${options.scale.min}-${options.scale.max} (the first on line ${first.line}: ${formatNumber(first.score)}); Spearman and Pearson are unaffected`,
        { line: first.line, field: PRED_SCORE, expected: `${options.scale.min} to ${options.scale.max}`, found: formatNumber(first.score) }
      )
    )
  }
  return { value: { pairIds: gold.pairIds, run: values, gold: gold.scores }, issues: issues.done() }
}

/**
 * Parse a submission and match it to its gold: `parseRun`'s issues, then `match`'s (all of them,
 * so that one report lists every problem; not when the header is wrong, as nothing was read). The
 * match is empty when there is any error.
 *
 * @example
 * ```ts
 * import { SemRel, Text } from "@stseval/formats"
 *
 * const gold = { file: "eng_test_with_labels.csv", pairIds: ["eng-1"], scores: new Float64Array([0.25]) }
 * const { value, issues } = SemRel.matchRun(Text.fromString("PairID,Pred_Score\neng-1,0.5\n", "pred_eng.csv").value, gold)
 * ```
 * @since 0.1.0
 */
export const matchRun = (
  text: TextFile,
  gold: GoldPairs,
  options: { readonly scale?: { readonly min: number; readonly max: number } } = {}
): Parsed<Matched> => {
  const parsed = parseRun(text)
  const empty: Matched = { pairIds: [], run: new Float64Array(0), gold: new Float64Array(0) }
  const headerBad = parsed.issues.some((i) => i.severity === "error" && (i.code === "missing-header" || i.code === "bad-header" || i.code === "bad-csv"))
  if (headerBad) return { value: empty, issues: parsed.issues }
  const matched = match(gold, parsed.value, options)
  const issues = [...parsed.issues, ...matched.issues]
  return { value: Issue.hasErrors(issues) ? empty : matched.value, issues }
}

