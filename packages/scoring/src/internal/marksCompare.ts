/**
 * The pairwise comparisons behind the marks: a comparison's p-value as the marks read it, the pair
 * no test can take (one run a positive linear map of the other), and the p-value matrix between
 * the best runs (the HTML heat map). Apart from `Marks` so that deciding the bold reads on its own.
 */
import { Pearson } from "@stseval/metrics"
import { Compare, Dependent, TestResult } from "@stseval/significance"
import type { Bootstrap } from "@stseval/significance"

/** A comparison's p-value as the marks read it: zou2007 gives an interval only (different when it excludes 0). */
export const pOf = (c: Compare.Comparison): number => (c.pValue !== undefined ? c.pValue : c.ci !== undefined && (c.ci[0] > 0 || c.ci[1] < 0) ? 0 : 1)

/** Pearson of two runs; a run that is a positive linear map of the other has nothing to test (cocor's statistics are 0/0). */
export const sameUpToScale = (a: Bootstrap.Values, b: Bootstrap.Values): boolean =>
  a instanceof Float64Array && b instanceof Float64Array && Pearson.pearsonRaw(a, b) >= 1 - 1e-12

/**
 * The analytic tests' inputs of run `a` against others (`Compare.two`'s `known`): the gold and `a`
 * centred once, not once per pair; undefined where `Compare.two` is to compute or refuse them itself
 * (labels, a length mismatch).
 */
export const knownInputs = (gold: Bootstrap.Values, a: Bootstrap.Values): (b: Bootstrap.Values) => Dependent.Input | undefined => {
  if (!(gold instanceof Float64Array && a instanceof Float64Array)) return () => undefined
  const inputOf = Dependent.inputsAgainst(gold, a)
  return (b) => {
    if (!(b instanceof Float64Array)) return undefined
    const input = inputOf(b)
    return TestResult.isInvalid(input) ? undefined : input
  }
}

/** The p-value matrix between the best `size` runs (by their figure), raw p-values. */
export const matrixOf = (
  kept: ReadonlyArray<{ readonly id: string; readonly value: number }>,
  joined: { readonly gold: Bootstrap.Values; readonly runs: ReadonlyArray<Bootstrap.Values> },
  settings: Compare.Options & { readonly test: Compare.TestName },
  direction: "higher" | "lower",
  size: number,
  maxRuns: number
): { readonly runs: ReadonlyArray<string>; readonly p: ReadonlyArray<ReadonlyArray<number>>; readonly total?: number } => {
  const order = kept.map((_, i) => i).sort((a, b) => (direction === "higher" ? kept[b].value - kept[a].value : kept[a].value - kept[b].value) || a - b)
  const top = order.slice(0, Math.max(1, Math.min(size, maxRuns)))
  const m = top.length
  const p: Array<Array<number>> = Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => (i === j ? 1 : Number.NaN)))
  const set = (i: number, j: number, v: number) => {
    p[i][j] = v
    p[j][i] = v
  }
  if ((settings.test === "bootstrap" || settings.test === "permutation") && m > 1) {
    const many = Compare.many(
      joined.gold,
      top.map((i) => joined.runs[i]),
      { ...settings, against: "all", correction: "none" }
    )
    if (!TestResult.isInvalid(many)) for (const c of many.comparisons) set(c.a, c.b, pOf(c))
  } else {
    for (let i = 0; i + 1 < m; i++) {
      const a = joined.runs[top[i]]
      const inputOf = knownInputs(joined.gold, a)
      for (let j = i + 1; j < m; j++) {
        const b = joined.runs[top[j]]
        if (sameUpToScale(a, b)) set(i, j, 1)
        else {
          const c = Compare.two(joined.gold, a, b, settings, inputOf(b))
          if (!TestResult.isInvalid(c)) set(i, j, pOf(c))
        }
      }
    }
  }
  return { runs: top.map((i) => kept[i].id), p, ...(m < kept.length ? { total: kept.length } : {}) }
}
