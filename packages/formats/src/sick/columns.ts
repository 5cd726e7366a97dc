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
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const label: Sick.EntailmentLabel = "NEUTRAL"
 * ```
 * @since 0.1.0
 */
export type EntailmentLabel = (typeof ENTAILMENT_LABELS)[number]

/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const column: "relatedness_score" = Sick.RELATEDNESS
 * ```
 * @since 0.1.0
 */
export const RELATEDNESS = "relatedness_score"
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const column: "entailment_judgment" = Sick.ENTAILMENT
 * ```
 * @since 0.1.0
 */
export const ENTAILMENT = "entailment_judgment"
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const header = [Sick.PAIR_ID, Sick.ENTAILMENT, Sick.RELATEDNESS].join("\t") // a run file's header line
 * ```
 * @since 0.1.0
 */
export const PAIR_ID = "pair_ID"

/**
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * const data = Sick.parseData(Text.fromString("pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n1\tA man sings\tA man sings\t5\tENTAILMENT\n", "SICK_trial.txt").value)
 * const pair: Sick.SickPair = data.value.pairs[0] // { pairId: "1", relatedness: 5, entailment: "ENTAILMENT", ... }
 * ```
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
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Sick, Text } from "@stseval/formats"
 *
 * const data: Sick.SickData = Sick.parseData(Text.decode(fs.readFileSync("SICK_test_annotated.txt"), "SICK_test_annotated.txt").value).value
 * data.hasRelatedness && data.hasEntailment // true: it is its own gold
 * ```
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
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * const run = Sick.parseRun(Text.fromString("pair_ID\tentailment_judgment\trelatedness_score\n6\tNA\t2.94\n", "Insight_run1.txt").value)
 * const entailment: Sick.SubtaskColumn = run.value.entailment // "na": the team did not take part
 * ```
 * @since 0.1.0
 */
export type SubtaskColumn =
  | "present" // a value in every row (individual bad values are issues with the line)
  | "na" // the literal NA (or empty) in the column: the team did not take part
  | "absent" // no such column

/**
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * const run = Sick.parseRun(Text.fromString("pair_ID\tentailment_judgment\trelatedness_score\n6\tNEUTRAL\t2.94\n", "Team_run1.txt").value)
 * const row: Sick.SickRunRow = run.value.rows[0] // { pairId: "6", entailment: "NEUTRAL", relatedness: 2.94, line: 2 }
 * ```
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
 * @example
 * ```ts
 * import { Sick, Text } from "@stseval/formats"
 *
 * const run: Sick.SickRun = Sick.parseRun(Text.fromString("relatedness_score\tpair_ID\tentailment_judgment\n2.94\t6\tNEUTRAL\n", "Team_run1.txt").value).value
 * run.columns // the header's columns, in the file's order (any order is allowed)
 * ```
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
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const columns = [Sick.PAIR_ID, Sick.SENTENCE_A, Sick.SENTENCE_B] // the data files' first columns
 * ```
 * @since 0.1.0
 */
export const SENTENCE_A = "sentence_A"
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * const second: "sentence_B" = Sick.SENTENCE_B
 * ```
 * @since 0.1.0
 */
export const SENTENCE_B = "sentence_B"
/**
 * @example
 * ```ts
 * import { Sick } from "@stseval/formats"
 *
 * // SICK.txt (the full release) says which split each pair is in
 * const column: "SemEval_set" = Sick.SEMEVAL_SET
 * ```
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
