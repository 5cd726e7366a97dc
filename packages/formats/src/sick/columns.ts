/** SICK's column names, entailment labels and the shapes its files are read into. */

/**
 * Case-sensitive, as in the final official scorer.
 *
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * Sick.ENTAILMENT_LABELS // ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"]
 * ```
 * @since 0.1.0
 */
export const ENTAILMENT_LABELS = ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"] as const
/**
 * One of SICK's three entailment labels.
 *
 * @since 0.1.0
 */
export type EntailmentLabel = (typeof ENTAILMENT_LABELS)[number]

/**
 * The relatedness column's name in SICK files.
 *
 * @since 0.1.0
 */
export const RELATEDNESS = "relatedness_score"
/**
 * The entailment column's name in SICK files.
 *
 * @since 0.1.0
 */
export const ENTAILMENT = "entailment_judgment"
/**
 * The pair id column's name in SICK files.
 *
 * @since 0.1.0
 */
export const PAIR_ID = "pair_ID"

/**
 * One pair of a SICK data file.
 *
 * @since 0.1.0
 */
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

/**
 * A SICK data file read: its pairs and which gold columns it has.
 *
 * @since 0.1.0
 */
export interface SickData {
  readonly file: string
  readonly pairs: ReadonlyArray<SickPair>
  readonly hasRelatedness: boolean
  readonly hasEntailment: boolean
  /** the 12-column full release (`SICK.txt`) */
  readonly fullRelease: boolean
}

/**
 * What a run file holds for one subtask.
 *
 * @since 0.1.0
 */
export type SubtaskColumn =
  | "present" // a value in every row (individual bad values are issues with the line)
  | "na" // the literal NA (or empty) in the column: the team did not take part
  | "absent" // no such column

/**
 * One row of a SICK run.
 *
 * @since 0.1.0
 */
export interface SickRunRow {
  readonly pairId: string
  /** the label exactly as written (validated against ENTAILMENT_LABELS by the parser) */
  readonly entailment: string | undefined
  /** NaN when not a number (an issue says so) */
  readonly relatedness: number | undefined
  readonly line: number
}

/**
 * A SICK run read: its rows and which columns it gives.
 *
 * @since 0.1.0
 */
export interface SickRun {
  readonly file: string
  /** `inferred`: no header line; columns were recognised from the values (a warning says so) */
  readonly header: "present" | "inferred"
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<SickRunRow>
  readonly relatedness: SubtaskColumn
  readonly entailment: SubtaskColumn
}

/**
 * The first sentence's column name in SICK data files.
 *
 * @since 0.1.0
 */
export const SENTENCE_A = "sentence_A"
/**
 * The second sentence's column name in SICK data files.
 *
 * @since 0.1.0
 */
export const SENTENCE_B = "sentence_B"
/**
 * The column of the full SICK release that names each pair's split.
 *
 * @since 0.1.0
 */
export const SEMEVAL_SET = "SemEval_set"

/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * Sick.isEntailmentLabel("NEUTRAL") // true
 * Sick.isEntailmentLabel("neutral") // false: case-sensitive, as the final official scorer
 * ```
 * @since 0.1.0
 */
export const isEntailmentLabel = (s: string): s is EntailmentLabel => (ENTAILMENT_LABELS as ReadonlyArray<string>).includes(s)
