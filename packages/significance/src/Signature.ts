/**
 * Reproducibility signatures for resampling results, in the style of SacreBLEU: every setting that
 * changes the numbers, as one `key:value|key:value` string plus the same data as an object.
 *
 * @since 0.1.0
 */

/**
 * Version of this package, printed in every signature (kept equal to package.json by a test).
 *
 * @example
 * ```ts
 * import { Signature } from "@stseval/significance"
 *
 * const version: string = Signature.VERSION // in every signature, so that a figure says what computed it
 * ```
 * @since 0.1.0
 */
export const VERSION = "0.1.0"

/**
 * @example
 * ```ts
 * import { Signature } from "@stseval/significance"
 *
 * const s: Signature.Signature = { method: "bootstrap", resamples: 1000, seed: 12345, metric: "pearson", strata: "none", rng: "xoroshiro128plus", version: Signature.VERSION }
 * ```
 * @since 0.1.0
 */
export interface Signature {
  readonly method: "bootstrap" | "permutation"
  readonly resamples: number
  readonly seed: number
  /** the metric's registry name (`pearson`, `spearman`, `kendall`, `mse`, ...; a descriptor's own name) */
  readonly metric: string
  /** `none`, or `dataset` when resampling was stratified by dataset / track. */
  readonly strata: "none" | "dataset"
  /** How per-dataset correlations were combined (only with strata). */
  readonly aggregate?: "weighted" | "unweighted"
  readonly rng: "xoroshiro128plus"
  readonly version: string
}

/**
 * `method:bootstrap|resamples:10000|seed:12345|metric:pearson|strata:dataset|aggregate:unweighted|rng:xoroshiro128plus|version:0.1.0`
 *
 * @example
 * ```ts
 * import { Signature } from "@stseval/significance"
 *
 * Signature.format({ method: "bootstrap", resamples: 1000, seed: 12345, metric: "pearson", strata: "none", rng: "xoroshiro128plus", version: Signature.VERSION })
 * // "method:bootstrap|resamples:1000|seed:12345|metric:pearson|..."
 * ```
 * @since 0.1.0
 */
export const format = (s: Signature): string =>
  [
    `method:${s.method}`,
    `resamples:${s.resamples}`,
    `seed:${s.seed}`,
    `metric:${s.metric}`,
    `strata:${s.strata}`,
    ...(s.aggregate !== undefined ? [`aggregate:${s.aggregate}`] : []),
    `rng:${s.rng}`,
    `version:${s.version}`
  ].join("|")
