// Independent references for tests: the textbook formulas written out once, apart from the
// metrics package they check (its kernels scale, branch and use typed arrays; this does none of that).

/**
 * Pearson's r, textbook two-pass formula: sum((x-mx)(y-my)) / sqrt(sum((x-mx)^2) sum((y-my)^2)).
 *
 * @param {ArrayLike<number>} x
 * @param {ArrayLike<number>} y
 * @returns {number}
 */
export const pearson = (x, y) => {
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
    sxy += (x[i] - mx) * (y[i] - my)
    sxx += (x[i] - mx) ** 2
    syy += (y[i] - my) ** 2
  }
  return sxy / Math.sqrt(sxx * syy)
}
