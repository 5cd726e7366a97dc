// Plain two-pass Pearson for turning scores into the inputs of the analytic tests. Kept local
// (rather than @stseval/metrics) so this package's analytic API does not change with the metrics
// package's result type.
export const pearson = (x: Float64Array, y: Float64Array): number => {
  const n = x.length
  let mx = 0
  let my = 0
  for (let i = 0; i < n; i++) {
    mx += x[i]
    my += y[i]
  }
  mx /= n
  my /= n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx
    const dy = y[i] - my
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  return sxy / Math.sqrt(sxx * syy)
}
