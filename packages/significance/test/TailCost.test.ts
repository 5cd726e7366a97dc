// log10PValue's Student t series (p below 1e-300, all pairs of many runs give thousands) takes
// ln B(df / 2, 1/2) once per df, not three ln Gamma per p-value (issue 34); counted by Math.log's calls.
import { describe, expect, it, vi } from "vitest"
import { log10PValue } from "../src/internal/distributions.js"

describe("log10PValue on one df", () => {
  it("the same values again, and ln B(df / 2, 1/2) taken once: at most 6 logarithms per p-value after the first", () => {
    const ts = Array.from({ length: 100 }, (_, i) => 60 + i)
    const expected = ts.map((t) => log10PValue(t, "two.sided", 1377))
    // every one past a double's range (its values are checked in Underflow.test.ts)
    expect(expected.every((l) => l < -300)).toBe(true)
    log10PValue(50, "two.sided", 1000) // another df first: the cache is per df, and refilled
    const spy = vi.spyOn(Math, "log")
    const again = ts.map((t) => log10PValue(t, "two.sided", 1377))
    const calls = spy.mock.calls.length
    spy.mockRestore()
    expect(again).toEqual(expected)
    expect(calls).toBeLessThanOrEqual(6 * ts.length + 10)
  })
})
