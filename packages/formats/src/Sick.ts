/**
 * SemEval-2014 Task 1 (SICK) files: data files (train / trial / test, with or without gold, and the
 * 12-column full `SICK.txt`) and run files (`pair_ID`, `entailment_judgment`, `relatedness_score` in
 * any order; `NA` for a subtask not taken part in).
 *
 * Convention: an issue whose `field` is `relatedness_score` or `entailment_judgment` affects only
 * that subtask; an issue with no field affects the whole file.
 *
 * @since 0.1.0
 */
import type { Parsed } from "./Issue.js"
import type { TextFile } from "./Text.js"

/** Case-sensitive, as in the final official scorer. @since 0.1.0 */
export const ENTAILMENT_LABELS = ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"] as const
/** @since 0.1.0 */
export type EntailmentLabel = (typeof ENTAILMENT_LABELS)[number]

/** @since 0.1.0 */
export const RELATEDNESS = "relatedness_score"
/** @since 0.1.0 */
export const ENTAILMENT = "entailment_judgment"
/** @since 0.1.0 */
export const PAIR_ID = "pair_ID"

/** @since 0.1.0 */
export interface SickPair {
  readonly pairId: string
  readonly sentenceA: string
  readonly sentenceB: string
  /** gold relatedness 1-5, absent in a test input file */
  readonly relatedness: number | undefined
  /** gold entailment label, absent in a test input file */
  readonly entailment: EntailmentLabel | undefined
  /** `SemEval_set` of the full release (TRAIN / TRIAL / TEST) */
  readonly set: string | undefined
  /** 1-based physical line */
  readonly line: number
}

/** @since 0.1.0 */
export interface SickData {
  readonly file: string
  readonly pairs: ReadonlyArray<SickPair>
  readonly hasRelatedness: boolean
  readonly hasEntailment: boolean
  /** the 12-column full release (`SICK.txt`) */
  readonly fullRelease: boolean
}

/** What a run file holds for one subtask. @since 0.1.0 */
export type SubtaskColumn =
  | "present" // a value in every row (individual bad values are issues with the line)
  | "na" // the literal NA (or empty) in the column: the team did not take part
  | "absent" // no such column

/** @since 0.1.0 */
export interface SickRunRow {
  readonly pairId: string
  /** the label exactly as written (validated against ENTAILMENT_LABELS by the parser) */
  readonly entailment: string | undefined
  /** NaN when not a number (an issue says so) */
  readonly relatedness: number | undefined
  readonly line: number
}

/** @since 0.1.0 */
export interface SickRun {
  readonly file: string
  /** `inferred`: no header line; columns were recognised from the values (a warning says so) */
  readonly header: "present" | "inferred"
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<SickRunRow>
  readonly relatedness: SubtaskColumn
  readonly entailment: SubtaskColumn
}

/** @since 0.1.0 */
export declare const parseData: (text: TextFile) => Parsed<SickData>
/** @since 0.1.0 */
export declare const writeData: (pairs: ReadonlyArray<SickPair>, options?: { readonly gold?: boolean }) => string
/** @since 0.1.0 */
export declare const parseRun: (text: TextFile) => Parsed<SickRun>
/** Writes the header `pair_ID entailment_judgment relatedness_score`; undefined values as `NA`. @since 0.1.0 */
export declare const writeRun: (rows: ReadonlyArray<Pick<SickRunRow, "pairId" | "entailment" | "relatedness">>) => string
