// Plain two-pass Pearson for turning scores into the inputs of the analytic tests. Kept local
// (rather than @stseval/metrics' pearson) so this package's analytic API does not change with the
// metrics package's result type. Each side is first brought to unit scale by an exact power of
// two (metrics' `Rescale.unitScale`), so r is the same for scores of any magnitude (1e200, 1e-300)
// and bit-identical on ordinary scores (the factor is 1 there).
import { Rescale } from "@stseval/metrics"

export const pearson = (x: Float64Array, y: Float64Array): number => {
  const n = x.length
  const px = Rescale.unitScale(Rescale.maxAbs(x))
  const py = Rescale.unitScale(Rescale.maxAbs(y))
  let mx = 0
  let my = 0
  for (let i = 0; i < n; i++) {
    mx += x[i] * px
    my += y[i] * py
  }
  mx /= n
  my /= n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const dx = x[i] * px - mx
    const dy = y[i] * py - my
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  return sxy / Math.sqrt(sxx * syy)
}
