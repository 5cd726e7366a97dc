/**
 * Reproducibility signatures, the one type behind every signature stseval prints (the resampling
 * tests', the intervals' and the scored results'), in the style of SacreBLEU's `Signature`
 * (`sacrebleu/metrics/base.py` at commit 078c4401, `Signature.format(short)`, with its `_abbr`
 * short keys): every setting that changes the numbers, as ordered fields joined into one
 * `key:value|key:value` line, long (what every output prints) or short.
 *
 * @since 0.1.0
 */
import type { Signature as IntervalsSignature } from "./intervals/model.js"

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
 * The settings that make a resampling test's numbers reproducible (method, resamples, seed, metric,
 * strata, generator, version), printed as its signature line.
 *
 * @since 0.1.0
 */
export interface Signature {
  readonly method: "bootstrap" | "permutation"
  readonly resamples: number
  readonly seed: number
  /** the metric's registry name (a descriptor's own name) */
  readonly metric: string
  /** `dataset` when resampling was stratified by dataset / track */
  readonly strata: "none" | "dataset"
  /** how per-dataset figures were combined (only with strata) */
  readonly aggregate?: "weighted" | "unweighted"
  readonly rng: "xoroshiro128plus"
  readonly version: string
}

/**
 * One field of a signature: its key (`short`: in the short form, when it differs), its value, and
 * how they are joined (`:`, or `@` for a name and its version or hash: `sts2017@1a2b3c4d`).
 *
 * @since 0.5.0
 */
export interface Field {
  readonly key: string
  readonly short?: string | undefined
  readonly value: string | number
  readonly join?: ":" | "@" | undefined
}

/**
 * The fields as one line, `long` (default) or `short`; an undefined field is left out.
 *
 * @example
 * ```ts
 * import { Signature } from "@stseval/significance"
 *
 * const fields = [{ key: "resamples", short: "B", value: 1000 }, { key: "seed", short: "s", value: 7 }]
 * Signature.line(fields) // "resamples:1000|seed:7"
 * Signature.line(fields, "short") // "B:1000|s:7"
 * ```
 * @since 0.5.0
 */
export const line = (fields: ReadonlyArray<Field | undefined>, form: "long" | "short" = "long"): string =>
  fields
    .flatMap((f) => (f === undefined ? [] : [`${form === "short" && f.short !== undefined ? f.short : f.key}${f.join ?? ":"}${f.value}`]))
    .join("|")

// Every key of a test's or an interval's signature in the one order they print in, with its short
// form (sacrebleu's `_abbr`); a key a signature lacks is left out.
const KEYS = ["method m", "resamples B", "seed s", "metric", "level", "strata", "aggregate agg", "quantile q", "official", "missing", "metrics", "rng", "version v"].map(
  (k) => k.split(" ")
)

/**
 * A resampling test's or an interval's signature as its line, `long` (default) or `short`:
 * `method:bootstrap|resamples:10000|seed:12345|metric:pearson|strata:dataset|aggregate:unweighted|rng:xoroshiro128plus|version:0.1.0`,
 * `m:bootstrap|B:10000|s:12345|metric:pearson|strata:dataset|agg:unweighted|rng:xoroshiro128plus|v:0.1.0`.
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
export const format = (s: Signature | IntervalsSignature, form: "long" | "short" = "long"): string => {
  const values = s as unknown as Readonly<Record<string, string | number | undefined>>
  return line(KEYS.map(([key, short]) => (values[key] === undefined ? undefined : { key, short, value: values[key] })), form)
}
