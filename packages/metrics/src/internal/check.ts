/** @internal Programmer errors (not data errors) are thrown as RangeError. */
export const sameLength = (what: string, a: { readonly length: number }, b: { readonly length: number }): void => {
  if (a.length !== b.length) {
    throw new RangeError(`${what}: the run has ${a.length} scores but the gold has ${b.length}; align pairs first`)
  }
}

/**
 * @internal sqrt(sxx * syy), the denominator of r. One rounding when the product is a normal
 * number (so a perfect line gives exactly +-1); two square roots when it would under- or overflow.
 */
export const rootProduct = (sxx: number, syy: number): number => {
  const p = sxx * syy
  return p > 1e-300 && p < 1e300 ? Math.sqrt(p) : Math.sqrt(sxx) * Math.sqrt(syy)
}
