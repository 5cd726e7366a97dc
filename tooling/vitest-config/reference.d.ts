/** Pearson's r, textbook two-pass formula, written apart from the metrics package it checks. */
export declare const pearson: (x: ArrayLike<number>, y: ArrayLike<number>) => number
/** Average ranks (ties share the mean of their 1-based positions). */
export declare const averageRanks: (xs: ArrayLike<number>) => Array<number>
/** Spearman's rho: Pearson of the average ranks. */
export declare const spearman: (x: ArrayLike<number>, y: ArrayLike<number>) => number
/** Holm's step-down adjusted p-values. */
export declare const holm: (p: ReadonlyArray<number>) => Array<number>
/** "Tied with the best" by a paired bootstrap with Holm, written apart from the significance package. */
export declare const boldByBootstrap: (
  gold: ArrayLike<number>,
  runs: ReadonlyArray<ArrayLike<number>>,
  options?: { readonly metric?: "spearman" | "pearson"; readonly resamples?: number; readonly seed?: number; readonly alpha?: number; readonly shift?: boolean }
) => {
  readonly best: number
  readonly estimates: ReadonlyArray<number>
  readonly tied: ReadonlyArray<number>
  readonly compared: ReadonlyArray<number>
  readonly p: ReadonlyArray<number>
  readonly adjusted: ReadonlyArray<number>
}
