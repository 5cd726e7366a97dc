/**
 * @internal The second pass of the corrected two-pass algorithm (Chan, Golub & LeVeque 1983), said
 * once for Pearson, ALLnrm's fit and CCC: sums of squares and products of the pairs `idx[0..n)`
 * about the means `mx` / `my`, at the scale `px` / `py` (exact powers of two; 1 leaves a score as
 * it is), with the sums of the deviations `cx` / `cy` that correct them for the rounding left in the
 * means. Kept in `centred` (not returned) so that the kernels allocate nothing.
 */
export const centred = { sxx: 0, syy: 0, sxy: 0, cx: 0, cy: 0 }

/** @internal Fills `centred` (see above). */
export const centredSums = (x: Float64Array, y: Float64Array, idx: Int32Array | Uint32Array, n: number, px: number, py: number, mx: number, my: number): void => {
  let sxx = 0
  let syy = 0
  let sxy = 0
  let cx = 0
  let cy = 0
  for (let k = 0; k < n; k++) {
    const j = idx[k]
    const dx = x[j] * px - mx
    const dy = y[j] * py - my
    cx += dx
    cy += dy
    sxx += dx * dx
    syy += dy * dy
    sxy += dx * dy
  }
  centred.sxx = sxx
  centred.syy = syy
  centred.sxy = sxy
  centred.cx = cx
  centred.cy = cy
}

// 0, 1, 2, ...: the pairs in order, grown on demand, for a kernel that takes an index.
let identity = new Int32Array(0)

/** @internal The indices 0 .. n-1 (a shared array: read it, never write it). */
export const inOrder = (n: number): Int32Array => {
  if (identity.length < n) {
    identity = new Int32Array(n)
    for (let i = 0; i < n; i++) identity[i] = i
  }
  return identity
}
