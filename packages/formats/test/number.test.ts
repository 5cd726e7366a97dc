/**
 * Reading a numeric field (internal/number): plain decimal notation only, in linear time. The
 * pattern the check replaced is the specification it is checked against; a long run of digits
 * ending in a bad character (quadratic for that pattern) is read on its own and end to end through
 * the STS parser, on a million-digit line.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Sts, Text } from "@stseval/formats"
import { exactDecimalLines, isDecimal, parseNumber, plainNumber } from "../src/internal/number.js"

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

describe("exactDecimalLines (the bytes of a file of plain score lines)", () => {
  const bytesOf = (text: string) => new TextEncoder().encode(text)
  // what the text path reads (Number of each line), for a file exactDecimalLines accepts
  const byNumber = (text: string) => text.slice(0, -1).split("\n").map(Number)

  it("gives Number's double for every line it accepts, and accepts the short ways only", () => {
    const line = fc.tuple(
      fc.constantFrom("", "-", "+"),
      fc.string({ unit: fc.constantFrom("0", "1", "5", "9"), maxLength: 18 }),
      fc.option(fc.string({ unit: fc.constantFrom("0", "3", "7", "9"), maxLength: 25 }))
    )
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (parts) => {
        const lines = parts.map(([sign, int, frac]) => `${sign}${int}${frac === null ? "" : `.${frac}`}`)
        const text = `${lines.join("\n")}\n`
        const values = exactDecimalLines(bytesOf(text), 1_000_000)
        const shortWay = (l: string) => {
          const digits = l.replace(/^[+-]/, "").replace(".", "")
          const after = l.includes(".") ? l.length - l.indexOf(".") - 1 : 0
          return digits.length > 0 && digits.replace(/^0+/, "").length <= 15 && after <= 22
        }
        if (lines.every(shortWay)) {
          expect(values).toBeDefined()
          // to the bit, -0 included
          expect([...values!].map((v) => Object.is(v, -0) ? "-0" : String(v))).toEqual(byNumber(text).map((v) => Object.is(v, -0) ? "-0" : String(v)))
        } else expect(values).toBeUndefined()
      }),
      { numRuns: 2000 }
    )
  })

  it("reads scores written as tasks write them (1 to 4 decimals) as Number does", () => {
    const scores = Array.from({ length: 5000 }, (_, i) => (Math.sin(i) * 2.5 + 2.5).toFixed(1 + (i % 4)))
    const text = `${scores.join("\n")}\n`
    expect([...exactDecimalLines(bytesOf(text), 1_000_000)!]).toEqual(scores.map(Number))
  })

  it("leaves every other file to the text path", () => {
    for (const text of ["", "4.5", "4.5\r\n", "\ufeff4.5\n", "4.5\t100\n", "# c\n4.5\n", "4.5\n\n", "1e3\n", "4,5\n", " 4.5\n", "4.5 \n", "--1\n", "+-1\n", "1-\n", ".\n", "-\n", "1.2.3\n", "1234567890123456\n", `0.${"1".repeat(23)}\n`, "NaN\n", "Infinity\n"]) {
      expect([text, exactDecimalLines(bytesOf(text), 1_000_000)]).toEqual([text, undefined])
    }
    expect(exactDecimalLines(bytesOf("1\n2\n3\n"), 2)).toBeUndefined()
    expect([...exactDecimalLines(bytesOf("1\n2\n"), 2)!]).toEqual([1, 2])
  })

  it("reads each part of a line (sign, digits, point, digits) at the edges of the short way", () => {
    const cases: ReadonlyArray<readonly [string, ReadonlyArray<string> | undefined]> = [
      ["5.\n", ["5"]],
      [".5\n", ["0.5"]],
      ["-.5\n+5.\n", ["-0.5", "5"]],
      ["-0\n-0.0\n+0\n", ["-0", "-0", "0"]],
      // 15 significant digits after any count of leading zeros (in the integer part or after the point)
      [`${"0".repeat(40)}999999999999999\n0.000999999999999999\n`, ["999999999999999", "0.000999999999999999"]],
      [`${"0".repeat(40)}1000000000000000\n`, undefined],
      ["100000000000000.0\n", undefined],
      // a line of digits whose value overflows to infinity
      [`${"9".repeat(400)}\n`, undefined],
      [`0.${"0".repeat(22)}\n`, ["0"]],
      ["+\n", undefined],
      ["5\n-\n", undefined],
      ["5\n+.\n", undefined],
      ["5\n.5.\n", undefined],
      ["5\n5\r\n", undefined]
    ]
    for (const [text, expected] of cases) {
      const values = exactDecimalLines(bytesOf(text), 1_000_000)
      expect([text, values === undefined ? undefined : [...values].map((v) => (Object.is(v, -0) ? "-0" : String(v)))]).toEqual([text, expected])
    }
  })

  it("gives the same values whatever number of lines it expects (the gold's), fewer or more than there are", () => {
    const scores = Array.from({ length: 1379 }, (_, i) => (Math.cos(i) * 2.5 + 2.5).toFixed(i % 5))
    const bytes = bytesOf(`${scores.join("\n")}\n`)
    for (const expected of [0, 1, 2, 700, 1378, 1379, 1380, 5000]) {
      const values = exactDecimalLines(bytes, 1_000_000, expected)!
      expect([expected, values.length, [...values]]).toEqual([expected, 1379, scores.map(Number)])
    }
    // the cap on lines holds whatever is expected
    expect(exactDecimalLines(bytes, 1378, 5000)).toBeUndefined()
    expect(exactDecimalLines(bytes, 1379, 5000)?.length).toBe(1379)
  })
})
