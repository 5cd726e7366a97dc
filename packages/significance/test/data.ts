// Seeded synthetic data for the resampling tests (independent of the package's own RNG code).
import { mulberry32 } from "@stseval/vitest-config/random"
import { pearson, spearman } from "@stseval/vitest-config/reference"
export { mulberry32 }

export const normals = (rand: () => number) => () =>
  Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())

/** gold uniform on [0, 5]; each run = gold + noise[k] * N(0, 1). */
export const makeRuns = (n: number, noise: ReadonlyArray<number>, seed: number) => {
  const rand = mulberry32(seed)
  const normal = normals(rand)
  const gold = Float64Array.from({ length: n }, () => 5 * rand())
  const runs = noise.map((sd) => gold.map((g) => g + sd * normal()))
  return { gold, runs }
}

/** Pearson's r and Spearman's rho (average ranks for ties), the textbook formulas: the tests' shared independent references. */
export { pearson, spearman }
