import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Issue, StsBenchmark, Text } from "@stseval/formats"

const here = path.dirname(fileURLToPath(import.meta.url))
const load = (name: string) => Text.decode(new Uint8Array(fs.readFileSync(path.join(here, "fixtures", "stsb", name))), name).value
const isIssue = Schema.is(Issue.Issue)

describe("StsBenchmark.parse", () => {
  it("reads the benchmark fields; bare quotes stay in the sentence, extra fields are kept", () => {
    const p = StsBenchmark.parse(load("sts-tiny.csv"))
    expect(p.issues).toEqual([])
    expect(StsBenchmark.detectLayout(load("sts-tiny.csv"))).toBe("benchmark")
    expect(p.value.rows).toEqual([
      {
        genre: "main-captions", source: "MSRvid", year: "2012test", id: "0001", score: 5,
        sentence1: "A man with a hard hat is dancing.", sentence2: "A man wearing a hard hat is dancing.", extra: [], line: 1
      },
      {
        genre: "main-news", source: "headlines", year: "2016", id: "0010", score: 3,
        sentence1: '"It would be a mistake to underestimate her.', sentence2: '"It would be a mistake to the underestimate.',
        extra: ["EAMT11 target_postedited", "EAMT11 target"], line: 2
      },
      {
        genre: "main-forums", source: "answer-answer", year: "2016", id: "0015", score: 0.5,
        sentence1: "In the US, it will depend on the school.", sentence2: "It really depends on the school.", extra: [], line: 3
      }
    ])
  })

  it("the companion files (no genre field) are recognised and read one field earlier", () => {
    const t = load("sts-companion.tiny.csv")
    expect(StsBenchmark.detectLayout(t)).toBe("companion")
    const p = StsBenchmark.parse(t)
    expect(p.issues).toEqual([])
    expect(p.value.rows.map((r) => [r.genre, r.source, r.year, r.id, r.score, r.sentence1, r.extra.length])).toEqual([
      ["", "SMTeuroparl", "2012test", "0000", 4.5, "The leaders have now been given a new chance.", 0],
      ["", "postediting", "2016", "0010", 3, '"It would be a mistake.', 2]
    ])
  })

  it("fewer than 7 fields, or a score that is not a number, is an error with the line", () => {
    const p = StsBenchmark.parse(load("sts-bad.csv"))
    expect(p.issues.map((i) => `${i.code}@${i.line}${i.field ? `/${i.field}` : ""}`)).toEqual(["field-count@2", "not-a-number@3/score"])
    expect(p.issues.every((i) => i.severity === "error")).toBe(true)
    expect(p.value.rows.map((r) => r.score)).toEqual([5, 4.2, NaN])
  })
})

const field = fc
  .string({ unit: "binary", minLength: 1, maxLength: 25 })
  .map((s) => ["\t", "\r", "\n", "\u0000"].reduce((acc, c) => acc.replaceAll(c, " "), s))
  .filter((s) => !Text.isBlank(s) && !["\uFEFF", "PK\u0003\u0004", "PK\u0005\u0006"].some((m) => s.startsWith(m)))
const fieldWithQuotes = fc.oneof(field, field.map((s) => `"${s}`), field.map((s) => `${s} "quoted" ${s}`))

describe("StsBenchmark.write round-trips", () => {
  it("parse(write(rows)) gives the rows back", () => {
    const row = fc.record({
      genre: fc.constantFrom("main-captions", "main-news", "main-forums"),
      source: field,
      year: fc.constantFrom("2012test", "2012train", "2014", "2017"),
      id: fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, "0")),
      score: fc.double({ noNaN: true, noDefaultInfinity: true }),
      sentence1: fieldWithQuotes,
      sentence2: fieldWithQuotes,
      extra: fc.array(field, { maxLength: 3 })
    })
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 10 }), (rows) => {
        const p = StsBenchmark.parse(Text.fromString(StsBenchmark.write(rows), "x").value)
        expect(p.issues).toEqual([])
        expect(p.value.rows).toEqual(rows.map((r, i) => ({ ...r, line: i + 1 })))
      })
    )
  })

  it("arbitrary text never throws and gives typed issues", () => {
    const f = fc.oneof(fc.string({ unit: "binary", maxLength: 8 }), fc.constantFrom("2012test", "0001", "3.5", '"', "NaN", ""))
    const line = fc.array(f, { maxLength: 10 }).map((fs) => fs.join("\t"))
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), (lines) => {
        const p = StsBenchmark.parse(Text.fromString(lines.join("\n"), "x").value)
        expect(p.issues.every(isIssue)).toBe(true)
      }),
      { numRuns: 300 }
    )
  })
})
