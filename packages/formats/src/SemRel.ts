

/**
 * SemEval-2024 Task 1 (SemRel, Semantic Textual Relatedness) files.
 *
 * - Data: `<lang>_{train,dev,test}[_with_labels].csv`, header `PairID,Text,Score` (Punjabi:
 *   `Text,Score,PairID`, and a few files write `score`: columns are read by name, ignoring case);
 *   both sentences share the quoted `Text` field, separated by a line break (Afrikaans: a tab);
 *   scores in [0, 1] from Best-Worst Scaling. `*_test.csv` has no `Score`.
 * - Submission, one file per language: `pred_<lang>.csv`, header `PairID,Pred_Score`.
 *
 * `matchRun` checks a submission the way the organisers' `evaluation.py` does — a header whose
 * first column is `PairID`, two columns, as many rows as the gold, no unknown and no repeated pair
 * ID — and, unlike it, refuses a missing, non-numeric or NaN prediction (`evaluation.py` let them
 * through and reported a NaN Spearman). Every refusal is an error issue with the file, line, what
 * was expected and what was found.
 *
 * The files are read in `semrel/files.ts`, runs matched in `semrel/match.ts` (pair IDs located in
 * `semrel/locate.ts`); here file names, the run writer and the format descriptor.
 *
 * @since 0.1.0
 */
import * as Issue from "./Issue.js"
import { quote } from "./Csv.js"
import { formatNumber } from "./internal/number.js"
import { pairsAsGold } from "./internal/pairsGold.js"
import type { Format } from "./Format.js"
import { PAIR_ID, PRED_SCORE, SCORE, parseData, parseRun } from "./semrel/files.js"
import { locate } from "./semrel/locate.js"

export * from "./semrel/files.js"
export * from "./semrel/match.js"

/**
 * Write a submission: header `PairID,Pred_Score`, one row per prediction, values in their shortest
 * exact form.
 *
 * @example
 * ```ts
 * import { SemRel } from "@stseval/formats"
 *
 * SemRel.writeRun([{ pairId: "eng-1", score: 0.5 }]) // "PairID,Pred_Score\neng-1,0.5\n"
 * ```
 * @since 0.1.0
 */
export const writeRun = (rows: ReadonlyArray<{ readonly pairId: string; readonly score: number }>): string =>
  `${PAIR_ID},${PRED_SCORE}\n${rows.map((r) => `${quote(r.pairId)},${formatNumber(r.score)}\n`).join("")}`

/**
 * The submission file of a language: `pred_<lang>.csv`.
 *
 * @example
 * ```ts
 * import { SemRel } from "@stseval/formats"
 *
 * SemRel.runFileName("eng") // "pred_eng.csv"
 * ```
 * @since 0.1.0
 */
export const runFileName = (language: string): string => `pred_${language}.csv`

/**
 * The language and split a SemRel file's name gives.
 *
 * @since 0.1.0
 */
export interface FileName {
  readonly language: string
  /** train, dev, test, or pred for a submission */
  readonly split: string
  readonly labelled: boolean
}

/**
 * What a SemRel file name says: `eng_test_with_labels.csv` -> eng, test, labelled;
 * `pred_eng.csv` -> eng, pred. Undefined for other names.
 *
 * @example
 * ```ts
 * import { SemRel } from "@stseval/formats"
 *
 * SemRel.parseFileName("amh_dev.csv") // { language: "amh", split: "dev", labelled: false }
 * ```
 * @since 0.1.0
 */
export const parseFileName = (name: string): FileName | undefined => {
  const pred = /^pred_([a-z]{3})\.csv$/i.exec(name)
  if (pred !== null) return { language: pred[1].toLowerCase(), split: "pred", labelled: false }
  const data = /^([a-z]{3})_(train|dev|test|pilot_dev|pilot)(_with_labels|_labels)?\.csv$/i.exec(name)
  if (data === null) return undefined
  return { language: data[1].toLowerCase(), split: data[2].toLowerCase(), labelled: data[2].toLowerCase() === "train" || data[3] !== undefined }
}

/**
 * The SemEval-2024 Task 1 format (`semrel-csv`): gold `<lang>_test_with_labels.csv` (`PairID,Text,
 * Score`, columns by name), runs `pred_<lang>.csv` (`PairID,Pred_Score`) matched by pair ID with the
 * organisers' `evaluation.py` checks (same number of rows, no unknown or repeated pair ID).
 *
 * @example
 * ```ts
 * import { SemRel } from "@stseval/formats"
 *
 * SemRel.format.name // "semrel-csv"
 * SemRel.format.match // "id"
 * ```
 * @since 0.3.0
 */
export const format: Format = {
  name: "semrel-csv",
  baselineRun: "semrel",
  description: "SemEval-2024 Task 1: gold <lang>_test_with_labels.csv (PairID,Text,Score by name); a run pred_<lang>.csv (PairID,Pred_Score) matched by PairID as evaluation.py does",
  match: "id",
  columns: [{ name: "score", kind: "scores", field: PRED_SCORE }],
  runLayout:
    "a CSV with the header `PairID,Pred_Score` and one row per pair of the test input: its `PairID` and your score (a number); rows are matched to the gold by `PairID`, in any order, and every pair needs a score",
  readGold: (text) => {
    const parsed = parseData(text)
    const { pairs, hasScores } = parsed.value
    return pairsAsGold(
      text,
      parsed,
      !hasScores && !Issue.hasErrors(parsed.issues),
      { message: "the SemRel file has no Score column: it is an input file, not gold (the gold is <lang>_test_with_labels.csv)", expected: "PairID,Text,Score", field: SCORE },
      { score: { kind: "scores", values: Float64Array.from(pairs, (p) => p.score ?? NaN) } }
    )
  },
  runReaders: [
    {
      name: "semrel-pred",
      read: (text) => {
        const parsed = parseRun(text)
        const p = parsed.value.predictions
        return {
          value: {
            file: text.file,
            length: p.length,
            lines: Int32Array.from(p, (x) => x.line),
            ids: p.map((x) => x.pairId),
            columns: { score: { kind: "scores", values: Float64Array.from(p, (x) => x.score) } }
          },
          issues: parsed.issues
        }
      }
    }
  ],
  writeRun: (run) => writeRun((run.ids ?? []).map((pairId, i) => ({ pairId, score: run.scores[i] }))),
  align: (gold, run) => {
    const located = locate(gold.file, gold.ids ?? [], run.file, run.ids ?? [], run.lines)
    return { value: { end: gold.length, runIndex: located.value }, issues: located.issues }
  }
}
