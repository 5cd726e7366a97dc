

/**
 * SemEval-2014 Task 1 (SICK) files: data files (train / trial / test, with or without gold, and the
 * 12-column full `SICK.txt`) and run files (`pair_ID`, `entailment_judgment`, `relatedness_score` in
 * any order; `NA` for a subtask not taken part in).
 *
 * Convention: an issue whose `field` is `relatedness_score` or `entailment_judgment` affects only
 * that subtask; an issue with no field affects the whole file.
 *
 * The columns and labels are in `sick/columns.ts`, the data files in `sick/data.ts`, the run files in
 * `sick/run.ts`; here the format descriptor.
 *
 * @since 0.1.0
 */
import type { Format } from "./Format.js"
import { ENTAILMENT, ENTAILMENT_LABELS, PAIR_ID, RELATEDNESS } from "./sick/columns.js"
import type { SubtaskColumn } from "./sick/columns.js"
import { parseData } from "./sick/data.js"
import { parseRun } from "./sick/run.js"
import { pairsAsGold } from "./internal/pairsGold.js"

export * from "./sick/columns.js"
export * from "./sick/data.js"
export * from "./sick/run.js"

/** A run column as a table column: values when present, else `na` / `absent`. */
const runColumn = <A>(state: SubtaskColumn, values: () => A) => (state === "present" ? values() : undefined)

/**
 * The SemEval-2014 Task 1 format (`sick`): the gold is a SICK data file, a run one tab-separated
 * file with a header naming `pair_ID`, `entailment_judgment` and `relatedness_score` in any order,
 * matched by pair ID. It has two columns, scored as two datasets: `relatedness` (graded 1-5) and
 * `entailment` (ENTAILMENT / CONTRADICTION / NEUTRAL, case-sensitive).
 *
 * @example
 * ```ts
 * import { Formats, Sick } from "@stseval/formats"
 *
 * Formats.get("sick") === Sick.format // true
 * Sick.format.columns.map((c) => c.name) // ["relatedness", "entailment"]
 * ```
 * @since 0.3.0
 */
export const format: Format = {
  name: "sick",
  baselineRun: "sick",
  description:
    "SemEval-2014 Task 1: gold a SICK data file; a run one TAB-separated file with the header pair_ID, entailment_judgment, relatedness_score (any order), matched by pair_ID; NA in a column skips that subtask",
  match: "id",
  runLayout:
    "one tab-separated file with the header `pair_ID`, `entailment_judgment`, `relatedness_score` (in any order) and one row per test pair, matched to the gold by `pair_ID`; `entailment_judgment` is ENTAILMENT, CONTRADICTION or NEUTRAL (case-sensitive), `relatedness_score` a number; write `NA` in every row of a column whose subtask you do not enter",
  columns: [
    { name: "relatedness", kind: "scores", field: RELATEDNESS },
    { name: "entailment", kind: "labels", field: ENTAILMENT, labels: ENTAILMENT_LABELS }
  ],
  readGold: (text) => {
    const parsed = parseData(text)
    const { pairs, hasRelatedness, hasEntailment } = parsed.value
    return pairsAsGold(
      text,
      parsed,
      pairs.length > 0 && !hasRelatedness && !hasEntailment,
      {
        message: "the SICK file has no gold columns (relatedness_score, entailment_judgment): it is an input file, not gold",
        expected: "pair_ID, sentence_A, sentence_B, relatedness_score, entailment_judgment",
        field: RELATEDNESS
      },
      {
        relatedness: hasRelatedness ? { kind: "scores", values: Float64Array.from(pairs, (p) => p.relatedness ?? NaN) } : { kind: "absent" },
        entailment: hasEntailment ? { kind: "labels", values: pairs.map((p) => p.entailment ?? "") } : { kind: "absent" }
      }
    )
  },
  runReaders: [
    {
      name: "sick-run",
      read: (text, context) => {
        const parsed = parseRun(text, { lenient: context.lenient === true })
        const run = parsed.value
        const rows = run.rows
        // the columns in one loop over the rows (`Float64Array.from` walks an array through its iterator)
        const scores = new Float64Array(rows.length)
        const lines = new Int32Array(rows.length)
        const labels: Array<string> = []
        const ids: Array<string> = []
        for (let i = 0; i < rows.length; i++) {
          const r = rows[i]
          scores[i] = r.relatedness ?? NaN
          lines[i] = r.line
          labels.push(r.entailment ?? "")
          ids.push(r.pairId)
        }
        const relatedness = runColumn(run.relatedness, () => scores)
        const entailment = runColumn(run.entailment, () => labels)
        return {
          value: {
            file: text.file,
            length: rows.length,
            lines,
            ...(run.columns.includes(PAIR_ID) ? { ids } : {}),
            columns: {
              relatedness: relatedness !== undefined ? { kind: "scores", values: relatedness } : { kind: run.relatedness === "na" ? "na" : "absent" },
              entailment: entailment !== undefined ? { kind: "labels", values: entailment } : { kind: run.entailment === "na" ? "na" : "absent" }
            }
          },
          issues: parsed.issues
        }
      }
    }
  ]
}
