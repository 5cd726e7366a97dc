/**
 * The footnotes that say what a table's marks mean, one wording for every table: the report's
 * layouts and the live leaderboard print the same lines for the bullet, the bold, `⁰`, `‡`, the
 * missing cells and the intervals.
 *
 * @since 0.4.0
 */
import { Uncertainty } from "@stseval/scoring"
import type * as Table from "./Table.js"

/**
 * The footnote of the bullet on the best figure of a column (`Rank.best` among the ranked runs).
 *
 * @example
 * ```ts
 * import { Footnotes } from "@stseval/tables"
 *
 * Footnotes.best.startsWith("\u2022") // true
 * ```
 * @since 0.4.0
 */
export const best = "\u2022 best figure in the column among the ranked runs."

/**
 * The bold's footnotes: one per rule (`Marks.describe`: test, resamples, p-value, correction,
 * alpha), naming the columns it applies to (STS 2017's table has three rules in eight columns).
 *
 * @example
 * ```ts
 * import { Footnotes } from "@stseval/tables"
 *
 * Footnotes.tied(new Map([["Williams' t, p < 0.05, Holm", ["Primary"]]]), ["Primary", "en-en"])
 * // ["Bold in Primary: not significantly different from the best ranked run (Williams' t, p < 0.05, Holm)."]
 * ```
 * @since 0.4.0
 */
export const tied = (used: ReadonlyMap<string, ReadonlyArray<string>>, marked: ReadonlyArray<string>): ReadonlyArray<string> =>
  [...used].map(([rule, headers]) => {
    const ordered = [...new Set(marked.filter((h) => headers.includes(h)))]
    return `Bold${used.size > 1 || ordered.length < marked.length ? ` in ${ordered.join(", ")}` : ""}: not significantly different from the best ranked run (${rule}).`
  })

/**
 * The footnote of the `zeroed` mark (a superscript 0): what `rank`, `report` and the leaderboard say
 * under a table with a run whose official figure counts a dataset as zero.
 *
 * @example
 * ```ts
 * import { Footnotes } from "@stseval/tables"
 *
 * Footnotes.zeroed.startsWith("\u2070") // true
 * ```
 * @since 0.4.0
 */
export const zeroed =
  "\u2070 the official figure counts a dataset the run lacks, or that failed on an error, as 0 (the edition's missingDataset: zero, as the official scorers counted a missing dataset); the run is ranked."

/**
 * The footnote of a table whose cells carry the `‡` mark.
 *
 * @example
 * ```ts
 * import { Footnotes } from "@stseval/tables"
 *
 * Footnotes.fewPairs.startsWith("\u2021 an interval on fewer than 100 pairs") // true
 * ```
 * @since 0.3.0
 */
export const fewPairs = `${Uncertainty.FEW_PAIRS_MARK} an interval on fewer than 100 pairs: percentile intervals there hold the true value less often than their level says (95% intervals of Pearson's r: about 93% at 50 pairs, 91% at 30, on normal data).`

/**
 * The legend lines of the missing cells a table shows, one per kind used, in every format alike
 * (no "hover": Markdown and LaTeX have no tooltips; the HTML page adds that the reason is in each
 * cell's tooltip).
 *
 * @example
 * ```ts
 * import { Footnotes } from "@stseval/tables"
 *
 * Footnotes.missing(new Set(["notSubmitted", "failed"] as const))
 * // ["-: not submitted (the run has no file for this dataset).", "x: not scored: ..."]
 * ```
 * @since 0.3.0
 */
export const missing = (kinds: ReadonlySet<Table.MissingKind | "other">): ReadonlyArray<string> => [
  ...(kinds.has("notSubmitted") ? ["-: not submitted (the run has no file for this dataset)."] : []),
  ...(kinds.has("failed") ? ["x: not scored: the run's file for this dataset, or the whole run, has errors (stseval validate lists them)."] : []),
  ...(kinds.has("undefined") ? ["n/a: scored, but the figure is undefined (a constant run; an official figure that needs a dataset the run has no figure for)."] : []),
  ...(kinds.has("notRanked") ? ["- in a Rank column: listed, not ranked (failed, after the deadline, beyond the run limit, or without the figure)."] : []),
  ...(kinds.has("other") ? ["-: no figure."] : [])
]

/**
 * The footnotes of a table with intervals (`--ci`): what `≈` means when a row has it, and how the
 * intervals (and the rank range, when the table shows it) were made. The live leaderboard's tables
 * print the same.
 *
 * @example
 * ```ts
 * import { Footnotes } from "@stseval/tables"
 *
 * const notes = Footnotes.intervals({ level: 0.95, resamples: 1000, seed: 12345 }, { overlapsBest: false, range: true })
 * ```
 * @since 0.2.0
 */
export const intervals = (
  ci: { readonly level: number; readonly resamples: number; readonly seed: number },
  used: { readonly overlapsBest: boolean; readonly range: boolean }
): ReadonlyArray<string> => {
  const level = Uncertainty.formatLevel(ci.level)
  return [
    ...(used.overlapsBest ? [`\u2248 the run's ${level} rank interval overlaps the best run's (a reading aid beside the significance marks, not a test).`] : []),
    `${used.range ? "Rank range and i" : "I"}ntervals: ${level} percentile bootstrap over the pairs, resampled within each dataset (${ci.resamples} resamples, seed ${ci.seed}); not over annotators or datasets.`
  ]
}
