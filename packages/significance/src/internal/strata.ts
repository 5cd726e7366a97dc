// Strata (datasets) as the resampling reads them: dense ids, and the pairs grouped by stratum in
// the order of the documented draws.
import { codeTable } from "./metric.js"

/** Dense stratum ids (0..S-1 in order of first appearance) for each pair, or all 0. */
export const denseStrata = (strata: ArrayLike<number> | undefined, n: number): Int32Array => {
  const out = new Int32Array(n)
  if (strata === undefined) return out
  const { code } = codeTable<number>()
  for (let i = 0; i < n; i++) out[i] = code(strata[i])
  return out
}

/**
 * The pairs grouped by stratum (stable): `position[q]`, the original index of position q, stratum s
 * at [start[s], start[s + 1]).
 */
export const layout = (stratumOf: Int32Array) => {
  const N = stratumOf.length
  const S = stratumOf.reduce((most, s) => Math.max(most, s + 1), 0)
  const start = new Int32Array(S + 1)
  for (let i = 0; i < N; i++) start[stratumOf[i] + 1]++
  for (let s = 0; s < S; s++) start[s + 1] += start[s]
  const fill = start.slice(0, S)
  const position = new Int32Array(N)
  for (let i = 0; i < N; i++) position[fill[stratumOf[i]]++] = i
  return { strata: S, start, position }
}

