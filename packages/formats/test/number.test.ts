/**
 * Reading a numeric field (internal/number): plain decimal notation only, in linear time. The
 * pattern the check replaced is the specification it is checked against; a long run of digits
 * ending in a bad character (quadratic for that pattern) is read on its own and end to end through
 * the STS parser, on a million-digit line.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Sts, Text } from "@stseval/formats"
import { isDecimal, parseNumber, plainNumber } from "../src/internal/number.js"

// The documented grammar (docs/formats.md): what `isDecimal` must accept, exactly.
const SPEC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/** CPU time of this thread in ms (of the process where `threadCpuUsage` is missing). */
const cpuMs = (): number => {
  const usage = typeof process.threadCpuUsage === "function" ? process.threadCpuUsage() : process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

describe("isDecimal", () => {
  it("accepts exactly the plain decimal notation", () => {
    const samples = ["0", "3.5", "-2", "+4.", ".5", "1e5", "1E-5", "2.5e+10", "1e999", "007", "0.5", "", ".", "-", "e5", "1e", "1e+", "0x1f", "0x10", "0b1", "0o7", "-0x10", "Infinity", "+Infinity", "NaN", "3.2abc", " 1", "1 ", "1\u00a0", "\ufeff1", "1_000", "1..2", "١"]
    for (const s of samples) expect([s, isDecimal(s)]).toEqual([s, SPEC.test(s)])
  })

  it("agrees with the grammar on random strings of its characters", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("0", "7", "9", ".", "e", "E", "+", "-", "x", "X", "o", "b", "_", "I", " ", "\t", "\u00a0", "\n"), maxLength: 12 }),
        (s) => isDecimal(s) === SPEC.test(s)
      ),
      { numRuns: 20_000 }
    )
  })

  it("reads a million digits ending in a bad character, and a million-digit number, in linear time", () => {
    const before = cpuMs()
    expect(isDecimal(`${"7".repeat(1_000_000)}x`)).toBe(false)
    expect(isDecimal(`${"7".repeat(1_000_000)}7`)).toBe(true)
    expect(isDecimal(`-${"7".repeat(500_000)}.${"3".repeat(500_000)}e+12`)).toBe(true)
    expect(parseNumber(`${"9".repeat(1_000_000)}-`)).toEqual({ _tag: "not-a-number" })
    // Loose on purpose: a few ms on a quiet machine; the backtracking pattern took over half an
    // hour on one such line. It tells linear from quadratic, never how fast the machine is.
    expect(cpuMs() - before).toBeLessThan(20_000)
  })

  it("parseNumber and plainNumber keep their answers", () => {
    expect(parseNumber(" 3.5\t")).toEqual({ _tag: "number", value: 3.5 })
    expect(parseNumber("1e999")).toEqual({ _tag: "non-finite" })
    expect(parseNumber("inf")).toEqual({ _tag: "non-finite" })
    expect(parseNumber("3.2abc")).toEqual({ _tag: "not-a-number" })
    expect(parseNumber("  ")).toEqual({ _tag: "missing" })
    expect(plainNumber("4.25")).toBe(4.25)
    expect(plainNumber(" 4.25")).toBeNaN()
  })
})

describe("a run line of a million digits and a bad character", () => {
  it("is refused as not a number, naming the line and quoting only an excerpt", () => {
    const digits = "1".repeat(1_000_000)
    const text = Text.fromString(`0.5\n${digits}x\n4\n`, "STS.output.headlines.txt").value
    const before = cpuMs()
    const parsed = Sts.parseOutput(text)
    const spent = cpuMs() - before
    const issue = parsed.issues.find((i) => i.code === "not-a-number")
    expect(issue).toMatchObject({ line: 2, message: "the score on line 2 is not a number" })
    expect(issue!.found!.length).toBeLessThanOrEqual(80)
    // Loose on purpose (a quiet machine takes a few ms; the backtracking pattern took hours): it
    // only tells linear from quadratic, never how fast the machine is.
    expect(spent).toBeLessThan(20_000)
  })
})
