/**
 * STS 2012-2017 files: `STS.input.<dataset>.txt` (sentence1 TAB sentence2 [TAB extra...]),
 * `STS.gs.<dataset>.txt` (one gold score per line; blank = not annotated, 2015/16) and
 * `STS.output.<dataset>.txt` (a run: score [TAB confidence 0-100]; `#` lines are comments),
 * aligned by line number.
 *
 * @since 0.1.0
 */
import type { Parsed } from "./Issue.js"
import type { TextFile } from "./Text.js"

/** @since 0.1.0 */
export interface StsInputPair {
  readonly sentence1: string
  readonly sentence2: string
  readonly extra: ReadonlyArray<string>
  readonly line: number
}

/** @since 0.1.0 */
export interface StsInput {
  readonly file: string
  readonly pairs: ReadonlyArray<StsInputPair>
}

/** @since 0.1.0 */
export interface StsGold {
  readonly file: string
  /** one entry per gold line; NaN = not annotated (blank line) */
  readonly scores: Float64Array
  /** number of annotated lines */
  readonly annotated: number
}

/** @since 0.1.0 */
export interface StsOutput {
  readonly file: string
  /** one entry per score line (comments skipped); NaN where the line was bad (an issue says which) */
  readonly scores: Float64Array
  /** confidence 0-100 per score line, when the run gives one on every line */
  readonly confidence: Float64Array | undefined
  /** physical line number of each score, for messages */
  readonly lines: Int32Array
}

/** @since 0.1.0 */
export declare const parseInput: (text: TextFile) => Parsed<StsInput>
/** @since 0.1.0 */
export declare const parseGold: (text: TextFile) => Parsed<StsGold>
/** @since 0.1.0 */
export declare const parseOutput: (text: TextFile) => Parsed<StsOutput>
/** @since 0.1.0 */
export declare const writeInput: (pairs: ReadonlyArray<Omit<StsInputPair, "line">>) => string
/** NaN is written as a blank line (not annotated). @since 0.1.0 */
export declare const writeGold: (scores: ArrayLike<number>) => string
/** @since 0.1.0 */
export declare const writeOutput: (scores: ArrayLike<number>, confidence?: ArrayLike<number>) => string
