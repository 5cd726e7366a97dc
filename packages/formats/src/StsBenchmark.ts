/**
 * STS Benchmark csv (`sts-train.csv`, `sts-dev.csv`, `sts-test.csv`, companion files): TAB-separated,
 * read with quoting off (bare `"` occur inside sentences), extra trailing fields tolerated. Fields:
 * genre, file, year, id, score, sentence1, sentence2[, extra...]. A run for STS-B is an
 * `STS.output`-style file (one score per line of the csv), parsed with `Sts.parseOutput`.
 *
 * @since 0.1.0
 */
import type { Parsed } from "./Issue.js"
import type { TextFile } from "./Text.js"

/** @since 0.1.0 */
export interface StsbRow {
  readonly genre: string
  readonly source: string
  readonly year: string
  readonly id: string
  readonly score: number
  readonly sentence1: string
  readonly sentence2: string
  readonly extra: ReadonlyArray<string>
  readonly line: number
}

/** @since 0.1.0 */
export interface StsbData {
  readonly file: string
  readonly rows: ReadonlyArray<StsbRow>
}

/** @since 0.1.0 */
export declare const parse: (text: TextFile) => Parsed<StsbData>
/** @since 0.1.0 */
export declare const write: (rows: ReadonlyArray<Omit<StsbRow, "line">>) => string
