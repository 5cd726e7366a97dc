// Seeded synthetic data for the resampling tests (independent of the package's own RNG code).
import { mulberry32 } from "@stseval/vitest-config/random"
import { pearson } from "@stseval/vitest-config/reference"
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

/** Pearson's r, the textbook formula (the shared independent reference of the tests). */
export { pearson }

/** Average ranks (ties share the mean rank), by sorting. */
export const ranks = (x: ArrayLike<number>): Array<number> => {
  const idx = Array.from({ length: x.length }, (_, i) => i).sort((a, b) => x[a] - x[b])
  const r = new Array<number>(x.length)
  for (let i = 0; i < idx.length;) {
    let j = i
    while (j + 1 < idx.length && x[idx[j + 1]] === x[idx[i]]) j++
    for (let t = i; t <= j; t++) r[idx[t]] = (i + j) / 2 + 1
    i = j + 1
  }
  return r
}

export const spearman = (x: ArrayLike<number>, y: ArrayLike<number>): number => pearson(ranks(x), ranks(y))
