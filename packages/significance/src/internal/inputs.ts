// Validation of gold / runs / strata shared by Bootstrap and Permutation.
import { InvalidInput } from "../TestResult.js"

export const checkData = (
  gold: Float64Array,
  runs: ReadonlyArray<Float64Array>,
  strata: ArrayLike<number> | undefined,
  stratumOf: Int32Array
): InvalidInput | undefined => {
  const n = gold.length
  if (runs.length === 0) return new InvalidInput({ field: "runs", expected: "at least one run", found: "none" })
  for (let k = 0; k < runs.length; k++) {
    if (runs[k].length !== n) {
      return new InvalidInput({
        field: `runs[${k}]`,
        expected: `${n} scores (one per gold pair)`,
        found: `${runs[k].length}`
      })
    }
  }
  if (strata !== undefined && strata.length !== n) {
    return new InvalidInput({ field: "strata", expected: `${n} dataset indices`, found: `${strata.length}` })
  }
  const bad = (values: Float64Array) => values.findIndex((v) => !Number.isFinite(v))
  const gi = bad(gold)
  if (gi >= 0) return new InvalidInput({ field: `gold[${gi}]`, expected: "a finite score", found: String(gold[gi]) })
  for (let k = 0; k < runs.length; k++) {
    const i = bad(runs[k])
    if (i >= 0) {
      return new InvalidInput({ field: `runs[${k}][${i}]`, expected: "a finite score", found: String(runs[k][i]) })
    }
  }
  const sizes = new Map<number, number>()
  for (let i = 0; i < n; i++) sizes.set(stratumOf[i], (sizes.get(stratumOf[i]) ?? 0) + 1)
  for (const [s, size] of sizes) {
    if (size < 3) {
      return new InvalidInput({
        field: "strata",
        expected: "at least 3 pairs per dataset (a correlation of 2 points is always +-1)",
        found: `${size} pairs in dataset #${s}`
      })
    }
  }
  if (n < 3) return new InvalidInput({ field: "gold", expected: "at least 3 pairs", found: String(n) })
  return undefined
}

export const checkCount = (field: string, v: number, min: number): InvalidInput | undefined =>
  Number.isInteger(v) && v >= min && v <= 10_000_000
    ? undefined
    : new InvalidInput({ field, expected: `an integer from ${min} to 10,000,000`, found: String(v) })

export const checkSeed = (seed: number): InvalidInput | undefined =>
  Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff
    ? undefined
    : new InvalidInput({ field: "seed", expected: "an integer from 0 to 4294967295", found: String(seed) })
