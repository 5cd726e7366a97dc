// Reproduces R cocor's output (../shared/reference/cocor-*.tsv, plus rows copied into fixtures/)
// for every dependent-overlapping and independent test, alternative and input in the grid.
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { Dependent, Independent, TestResult } from "../src/index.js"
import type { Alternative } from "../src/TestResult.js"
import { centrings } from "../src/internal/cocorInputs.js"
import { close, fixture, hasShared, num, readTsv, sharedDir } from "./helpers.js"
import type { Row } from "./helpers.js"

const expectClose = (what: string, actual: number | undefined, expected: number | undefined) => {
  expect(actual, what).toBeDefined()
  expect(close(actual!, expected!), `${what}: got ${actual}, cocor ${expected}`).toBe(true)
}

/** Throws an invalid outcome (the row's inputs are valid) or gives the result. */
const valid = <A>(out: TestResult.Outcome<A>): A => {
  if (TestResult.isInvalid(out)) throw out
  return out
}

/** Zou's (2007) interval, the row's `ci_lower` and `ci_upper`. */
const expectZou = (label: string, ci: readonly [number, number], row: Row) => {
  expectClose(`${label} lower`, ci[0], num(row.ci_lower))
  expectClose(`${label} upper`, ci[1], num(row.ci_upper))
}

/** A test's statistic and p-value, the row's `statistic` and `p_value`. */
const expectTest = (label: string, out: { readonly statistic: number; readonly pValue: number }, row: Row) => {
  expectClose(`${label} statistic`, out.statistic, num(row.statistic))
  expectClose(`${label} p`, out.pValue, num(row.p_value))
}

const checkDependent = (row: Row) => {
  const input = { rJk: num(row.r_jk)!, rJh: num(row.r_jh)!, rKh: num(row.r_kh)!, n: num(row.n)! }
  const alternative = row.alternative as Alternative
  const label = `${row.test} ${row.r_jk} ${row.r_jh} ${row.r_kh} ${row.n} ${alternative}`
  if (row.test === "zou2007") return expectZou(label, valid(Dependent.zou2007(input, { alternative })).ci, row)
  const test = Dependent.tests[row.test as Dependent.TestName]
  expect(test, `unknown test ${row.test}`).toBeDefined()
  const out = valid(test(input, { alternative }))
  expectTest(label, out, row)
  expect(out.df, `${label} df`).toBe(num(row.df))
  const lower = num(row.ci_lower)
  if (lower !== undefined) {
    expectClose(`${label} ci lower`, out.ci?.[0], lower)
    expectClose(`${label} ci upper`, out.ci?.[1], num(row.ci_upper))
  } else {
    expect(out.ci).toBeUndefined()
  }
}

const checkIndependent = (row: Row) => {
  const input = { r1: num(row.r1)!, r2: num(row.r2)!, n1: num(row.n1)!, n2: num(row.n2)! }
  const alternative = row.alternative as Alternative
  const label = `${row.test} ${row.r1} ${row.r2} ${row.n1} ${row.n2} ${alternative}`
  if (row.test === "zou2007") return expectZou(label, valid(Independent.zou2007(input, { alternative })).ci, row)
  expect(row.test).toBe("fisher1925")
  expectTest(label, valid(Independent.fisher1925(input, { alternative })), row)
}

describe("cocor fixtures (rows copied from cocor output)", () => {
  const dependent = readTsv(fixture("cocor-dependent-overlapping.sample.tsv"))
  const independent = readTsv(fixture("cocor-independent.sample.tsv"))
  it("has rows for every dependent test", () => {
    expect(new Set(dependent.map((r) => r.test)).size).toBe(10)
  })
  it.each(dependent.map((r) => [`${r.test} ${r.alternative} n=${r.n}`, r] as const))("dependent %s", (_, row) =>
    checkDependent(row))
  it.each(independent.map((r) => [`${r.test} ${r.alternative} n1=${r.n1}`, r] as const))(
    "independent %s",
    (_, row) => checkIndependent(row)
  )
})

if (!hasShared) console.warn("skipped: full cocor reference grid (../shared/reference not found)")

describe.skipIf(!hasShared)("cocor reference grid (../shared/reference)", () => {
  it("reproduces every row of cocor-dependent-overlapping.tsv", () => {
    const rows = readTsv(path.join(sharedDir, "reference/cocor-dependent-overlapping.tsv"))
    expect(rows.length).toBe(240)
    rows.forEach(checkDependent)
  })
  it("reproduces every row of cocor-independent.tsv", () => {
    const rows = readTsv(path.join(sharedDir, "reference/cocor-independent.tsv"))
    expect(rows.length).toBe(24)
    rows.forEach(checkIndependent)
  })
})

describe("input validation", () => {
  it("rejects a correlation outside [-1, 1]", () => {
    const out = Dependent.tests.williams1959({ rJk: 1.2, rJh: 0.5, rKh: 0.3, n: 100 })
    expect(TestResult.isInvalid(out) && out.field).toBe("rJk")
  })
  it("rejects a non-positive-definite triple (identical runs: rKh = 1)", () => {
    const out = Dependent.tests.williams1959({ rJk: 0.8, rJh: 0.8, rKh: 1, n: 100 })
    expect(TestResult.isInvalid(out)).toBe(true)
    const impossible = Dependent.tests.steiger1980({ rJk: 0.9, rJh: -0.9, rKh: 0.9, n: 100 })
    expect(TestResult.isInvalid(impossible)).toBe(true)
  })
  it("rejects n <= 3 and a bad alternative", () => {
    expect(TestResult.isInvalid(Dependent.tests.hittner2003({ rJk: 0.5, rJh: 0.4, rKh: 0.3, n: 3 }))).toBe(true)
    expect(
      TestResult.isInvalid(Independent.fisher1925({ r1: 0.5, r2: 0.4, n1: 50, n2: 50 }, { alternative: "up" as never }))
    ).toBe(true)
  })
})

describe("inputFromScores", () => {
  it("builds r_jk, r_jh, r_kh, n from gold and two runs", () => {
    // gold 1..5; A = gold exactly; B reverses the last two
    const gold = Float64Array.from([1, 2, 3, 4, 5])
    const a = Float64Array.from([1, 2, 3, 4, 5])
    const b = Float64Array.from([1, 2, 3, 5, 4])
    const input = Dependent.inputFromScores(gold, a, b)
    if (TestResult.isInvalid(input)) throw input
    // deviations (-2, -1, 0, 1, 2) and (-2, -1, 0, 2, 1): products 4 + 1 + 0 + 2 + 2 = 9, over 10 -> 0.9
    expect(input).toEqual({ rJk: 1, rJh: expect.closeTo(0.9, 14) as number, rKh: expect.closeTo(0.9, 14) as number, n: 5 })
  })
})

describe("inputsAgainst (one run against many, each centred once)", () => {
  it("gives the hand-worked input, and bit for bit inputFromScores' on any scale", () => {
    const gold = Float64Array.from([1, 2, 3, 4, 5])
    const inputOf = Dependent.inputsAgainst(gold, Float64Array.from([1, 2, 3, 4, 5]))
    // as above: r_jk 1, r_jh = r_kh = 9 / 10
    expect(inputOf(Float64Array.from([1, 2, 3, 5, 4]))).toEqual({ rJk: 1, rJh: expect.closeTo(0.9, 14) as number, rKh: expect.closeTo(0.9, 14) as number, n: 5 })
    let seed = 7
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
    for (const scale of [1, 1e-200, 1e200]) {
      const g = Float64Array.from({ length: 97 }, () => next() * 5 * scale)
      const best = Float64Array.from(g, (x) => x + next() * scale)
      const against = Dependent.inputsAgainst(g, best)
      for (let k = 0; k < 5; k++) {
        const run = Float64Array.from(g, (x) => x + (k + 1) * next() * scale)
        const mine = valid(against(run))
        const theirs = valid(Dependent.inputFromScores(g, best, run))
        for (const key of ["rJk", "rJh", "rKh", "n"] as const) expect(Object.is(mine[key], theirs[key]), `${key} at scale ${scale}`).toBe(true)
      }
    }
  })

  it("refuses a run of another length as inputFromScores does, naming it, before centring anything", () => {
    const gold = Float64Array.of(1, 2, 3, 4)
    const before = centrings.count
    const out = Dependent.inputsAgainst(gold, Float64Array.of(1, 2, 4, 3))(Float64Array.of(1, 2, 3))
    expect(TestResult.isInvalid(out) && out.message).toContain("4 scores per run")
    expect(TestResult.isInvalid(out) && out.field).toBe("runB")
    const short = Dependent.inputsAgainst(gold, Float64Array.of(1, 2, 4))(gold)
    expect(TestResult.isInvalid(short) && [short.field, short.found]).toEqual(["runA", "3 scores"])
    expect(centrings.count).toBe(before)
  })
})

describe("the same bits on every supported Node", () => {
  // r(gold, A), r(gold, B), r(A, B) and n of two STS-B runs whose Williams' t printed 22.637692287215426 on
  // Node 22 and 22.63769228721543 on Node 24 while the formula used `**`: (1 - rKh) ** 3 rounds differently in
  // V8 11-12 and 13. Written out with products (SPEC §4's form), the t is one value on every Node.
  it("Williams' t equals its formula written with products, bit for bit", () => {
    const input = { rJk: 0.9838962298639713, rJh: 0.947930112010039, rKh: 0.9352018019798334, n: 1379 }
    const { rJk, rJh, rKh, n } = input
    const det = 1 + 2 * rJk * rJh * rKh - rJk * rJk - rJh * rJh - rKh * rKh
    const rMean = (rJk + rJh) / 2
    const t = (rJk - rJh) * Math.sqrt(((n - 1) * (1 + rKh)) / (2 * ((n - 1) / (n - 3)) * det + rMean * rMean * ((1 - rKh) * (1 - rKh) * (1 - rKh))))
    const out = valid(Dependent.tests.williams1959(input))
    expect(Object.is(out.statistic, t), `got ${out.statistic}, the products give ${t}`).toBe(true)
  })
})
