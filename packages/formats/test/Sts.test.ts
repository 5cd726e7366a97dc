import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Format, Formats, Issue, Sts, Text } from "@stseval/formats"

const here = path.dirname(fileURLToPath(import.meta.url))
const load = (dir: string, name: string) =>
  Text.decode(new Uint8Array(fs.readFileSync(path.join(here, "fixtures", dir, name))), name).value
const fromString = (s: string) => Text.fromString(s, "x").value
const codes = (issues: ReadonlyArray<Issue.Issue>) => issues.map((i) => `${i.severity}:${i.code}${i.line !== undefined ? `@${i.line}` : ""}`)
const isIssue = Schema.is(Issue.Issue)

describe("Sts.parseInput", () => {
  it("reads sentence pairs and keeps extra fields (bare quotes untouched)", () => {
    const p = Sts.parseInput(load("sts", "STS.input.tiny.txt"))
    expect(p.issues).toEqual([])
    expect(p.value.pairs).toEqual([
      { sentence1: "A man is playing a guitar.", sentence2: "A man plays the guitar.", extra: [], line: 1 },
      { sentence1: "A woman is slicing onions.", sentence2: 'A "chef" cuts an onion.', extra: ["source-a", "source-b"], line: 2 }
    ])
  })

  it("a line without a TAB is an error with the line, and still counts as a pair (alignment is by line)", () => {
    const p = Sts.parseInput(fromString("a\tb\njust one sentence\nc\td\n"))
    expect(codes(p.issues)).toEqual(["error:field-count@2"])
    expect(p.value.pairs.map((x) => x.line)).toEqual([1, 2, 3])
  })

  it("an empty sentence is a warning with the field", () => {
    const p = Sts.parseInput(fromString("a\t\n"))
    expect(p.issues).toEqual([expect.objectContaining({ severity: "warning", code: "empty-value", line: 1, field: "sentence2" })])
  })

  it("trailing blank lines are not pairs", () => {
    expect(Sts.parseInput(fromString("a\tb\n\n\n")).value.pairs).toHaveLength(1)
  })
})

describe("Sts.parseGold", () => {
  it("a blank line is a pair that was not annotated (NaN), trailing ones included", () => {
    const p = Sts.parseGold(load("sts", "STS.gs.tiny.txt")) // "4.8\n\n0.6\n\n"
    expect(Array.from(p.value.scores)).toEqual([4.8, NaN, 0.6, NaN])
    expect(p.value.annotated).toBe(2)
    expect(p.issues).toEqual([expect.objectContaining({ severity: "info", code: "not-annotated" })])
  })

  it("a value that is not a number is an error with the line", () => {
    const p = Sts.parseGold(fromString("1\nfive\n3\n"))
    expect(codes(p.issues)).toEqual(["error:not-a-number@2"])
    expect(Array.from(p.value.scores)).toEqual([1, NaN, 3])
  })

  it("a gold file without blanks has no not-annotated note", () => {
    const p = Sts.parseGold(fromString("0\n5.000\n2.4\n"))
    expect(p.issues).toEqual([])
    expect(Array.from(p.value.scores)).toEqual([0, 5, 2.4])
    expect(p.value.annotated).toBe(3)
  })
})

describe("Sts.parseOutput", () => {
  it("reads scores and a confidence on every line", () => {
    const p = Sts.parseOutput(load("sts", "STS.output.confidence.txt"))
    expect(p.issues).toEqual([])
    expect(Array.from(p.value.scores)).toEqual([4.5, 3, 0.25])
    expect(Array.from(p.value.confidence!)).toEqual([90, 100, 0])
    expect(Array.from(p.value.lines)).toEqual([1, 2, 3])
  })

  it("skips # comment lines and keeps the physical line numbers", () => {
    const p = Sts.parseOutput(load("sts", "STS.output.comments.txt"))
    expect(p.issues).toEqual([])
    expect(Array.from(p.value.scores)).toEqual([4.5, 3, 0.25])
    expect(Array.from(p.value.lines)).toEqual([2, 4, 5])
    expect(p.value.confidence).toBeUndefined()
  })

  it("missing, non-numeric and non-finite scores are errors with their line", () => {
    // 4.5 / abc / (blank) / NaN / inf / 1e999 / 3.2abc / 0x10 / 2.0
    const p = Sts.parseOutput(load("sts", "STS.output.bad.txt"))
    expect(codes(p.issues)).toEqual([
      "error:not-a-number@2",
      "error:not-a-number@3",
      "error:non-finite@4",
      "error:non-finite@5",
      "error:non-finite@6",
      "error:not-a-number@7",
      "error:not-a-number@8"
    ])
    expect(p.issues[1].message).toContain("missing")
    expect(Array.from(p.value.scores)).toEqual([4.5, NaN, NaN, NaN, NaN, NaN, NaN, NaN, 2])
    expect(Array.from(p.value.lines)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it("confidence outside 0-100 or not a number is a warning; a non-number leaves confidence unset", () => {
    const p = Sts.parseOutput(load("sts", "STS.output.bad-confidence.txt")) // 120, -1, high
    expect(p.issues.filter((i) => i.line !== undefined).map((i) => `${i.severity}:${i.code}@${i.line}`)).toEqual([
      "warning:bad-confidence@1",
      "warning:bad-confidence@2",
      "warning:bad-confidence@3"
    ])
    expect(Issue.hasErrors(p.issues)).toBe(false)
    expect(p.value.confidence).toBeUndefined()
    expect(Array.from(p.value.scores)).toEqual([4.5, 3, 0.25])
  })

  it("confidence on some lines only: not used, and a warning says so", () => {
    const p = Sts.parseOutput(load("sts", "STS.output.partial-confidence.txt"))
    expect(p.value.confidence).toBeUndefined()
    expect(p.issues).toEqual([expect.objectContaining({ severity: "warning", code: "bad-confidence", found: "2 of 3" })])
  })

  it("a score and confidence separated by spaces are read too", () => {
    const p = Sts.parseOutput(load("sts", "STS.output.spaces.txt"))
    expect(p.issues).toEqual([])
    expect(Array.from(p.value.confidence!)).toEqual([90, 100])
  })

  it("more than two fields is an error", () => {
    expect(codes(Sts.parseOutput(fromString("1\t50\textra\n")).issues)).toEqual(["error:field-count@1"])
  })

  it("a TAB then a number is a missing score, not a score", () => {
    const p = Sts.parseOutput(fromString("\t80\n"))
    expect(codes(p.issues)).toEqual(["error:not-a-number@1"])
  })

  it("the same data with CRLF, bare CR, a BOM, no final newline or trailing blanks parses the same", () => {
    for (const name of ["lf.txt", "crlf.txt", "cr.txt", "mixed.txt", "bom.txt", "no-final-newline.txt", "trailing-blank-lines.txt"]) {
      const p = Sts.parseOutput(load("text", name))
      expect(p.issues, name).toEqual([])
      expect(Array.from(p.value.scores), name).toEqual([1.5, 2, 3.25])
    }
  })

  it("caps the number of issues of one kind on a badly broken file", () => {
    const p = Sts.parseOutput(fromString("x\n".repeat(500)))
    expect(p.issues).toHaveLength(51)
    expect(p.issues[50].message).toContain("450 more lines")
    expect(p.value.scores).toHaveLength(500)
  })
})

// ---- round trips and robustness -------------------------------------------------------------

// Sentences as a task file can hold them: no TAB, no line break, not blank, no leading BOM or NUL.
const sentence = fc
  .string({ unit: "binary", minLength: 1, maxLength: 40 })
  .map((s) => ["\t", "\r", "\n", "\u0000"].reduce((acc, c) => acc.replaceAll(c, " "), s))
  .filter((s) => !Text.isBlank(s) && !["\uFEFF", "PK\u0003\u0004", "PK\u0005\u0006"].some((m) => s.startsWith(m)))
const finite = fc.double({ noNaN: true, noDefaultInfinity: true })

describe("Sts writers round-trip", () => {
  it("parseInput(writeInput(pairs)) gives the pairs back", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ sentence1: sentence, sentence2: sentence, extra: fc.array(sentence, { maxLength: 2 }) }), { minLength: 1, maxLength: 10 }), (pairs) => {
        const p = Sts.parseInput(Text.fromString(Sts.writeInput(pairs), "x").value)
        expect(p.issues).toEqual([])
        expect(p.value.pairs).toEqual(pairs.map((x, i) => ({ ...x, line: i + 1 })))
      })
    )
  })

  it("parseGold(writeGold(scores)) gives the scores back, NaN (not annotated) included", () => {
    const scores = fc.array(fc.oneof(finite, fc.constant(NaN)), { minLength: 1, maxLength: 20 }).filter((s) => s.some((x) => !Number.isNaN(x)))
    fc.assert(
      fc.property(scores, (s) => {
        const p = Sts.parseGold(Text.fromString(Sts.writeGold(s), "x").value)
        expect(Issue.hasErrors(p.issues)).toBe(false)
        expect(p.value.scores).toEqual(Float64Array.from(s))
        expect(p.value.annotated).toBe(s.filter((x) => !Number.isNaN(x)).length)
      })
    )
  })

  it("parseOutput(writeOutput(scores, confidence)) gives both back, bit for bit", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(finite, fc.double({ min: 0, max: 100, noNaN: true })), { minLength: 1, maxLength: 20 }), fc.boolean(), (rows, withConfidence) => {
        const scores = rows.map((r) => r[0])
        const confidence = withConfidence ? rows.map((r) => r[1]) : undefined
        const p = Sts.parseOutput(Text.fromString(Sts.writeOutput(scores, confidence), "x").value)
        expect(p.issues).toEqual([])
        expect(p.value.scores).toEqual(Float64Array.from(scores))
        // -0 is kept as -0 (Object.is), not folded into 0
        scores.forEach((s, i) => expect(Object.is(p.value.scores[i], s)).toBe(true))
        expect(p.value.confidence).toEqual(confidence === undefined ? undefined : Float64Array.from(confidence))
        expect(Array.from(p.value.lines)).toEqual(scores.map((_, i) => i + 1))
      })
    )
  })
})

describe("Sts.parseOutput reads every score line as the format says", () => {
  it("a plain decimal (spaces around it allowed, an optional confidence after a tab or spaces) is its number; anything else is NaN with an issue", () => {
    // the rule, written apart from the parser: the first field, trimmed, in plain decimal notation and finite
    const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
    const expected = (field: string) => (DECIMAL.test(field.trim()) && Number.isFinite(Number(field.trim())) ? Number(field.trim()) : Number.NaN)
    const number = fc.oneof(
      fc.double({ noNaN: true }).map(String),
      fc.integer({ min: -5, max: 5 }).map(String),
      fc.constantFrom("1e999", "0x1f", "Infinity", "NaN", "3.2abc", ".5", "5.", "+4", "-0", "1e-3", "", "abc")
    )
    const pad = fc.constantFrom("", " ", "  ")
    const line = fc.record({ left: pad, value: number, right: pad, confidence: fc.constantFrom(undefined, "\t80", " 80", "\t") })
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (rows) => {
        // (a blank line is not a score line: blank lines at the end are not part of the content)
        const text = rows.map((r) => `${r.left}${r.value}${r.right}${r.confidence ?? ""}`).map((t) => (t.trim() === "" ? "-" : t))
        const out = Sts.parseOutput(Text.fromString(`${text.join("\n")}\n`, "run.txt").value)
        text.forEach((t, i) => {
          // fields: split on tabs; a line without a tab but with spaces inside its text, on the spaces
          const first = t.includes("\t") ? t.split("\t")[0] : /\S +\S/.test(t.trim()) ? t.trim().split(/ +/)[0] : t
          const want = expected(first)
          const got = out.value.scores[i]
          if (Number.isNaN(want)) expect(Number.isNaN(got), t).toBe(true)
          else expect(Object.is(got, want), `${t}: ${got} vs ${want}`).toBe(true)
        })
      }),
      { numRuns: 300 }
    )
  })
})

describe("Sts parsers on arbitrary text", () => {
  it("never throw, and give typed issues", () => {
    const line = fc.oneof(fc.string({ unit: "binary", maxLength: 20 }), fc.constantFrom("#", "NaN", "1e999", "\t", "3\t", "-0", "1\t2\t3", ""))
    fc.assert(
      fc.property(fc.array(line, { maxLength: 15 }), fc.constantFrom("\n", "\r\n", "\r"), (lines, eol) => {
        const t = Text.fromString(lines.join(eol), "x").value
        for (const p of [Sts.parseInput(t), Sts.parseGold(t), Sts.parseOutput(t)]) {
          expect(p.issues.every(isIssue)).toBe(true)
        }
        const out = Sts.parseOutput(t).value
        expect(out.scores.length).toBe(out.lines.length)
      }),
      { numRuns: 300 }
    )
  })
})

describe("Sts.parseOutput: an index column (issue 24)", () => {
  const numbered = (start: number, n: number) => Array.from({ length: n }, (_, i) => `${start + i}\t${((i * 7) % 26) / 5}\n`).join("")

  it("a first column 0, 1, 2, ... or 1, 2, 3, ... is one line-numbers error on the first line, and no scores", () => {
    for (const start of [0, 1]) {
      const p = Sts.parseOutput(Text.fromString(`# made by a GLUE script\n${numbered(start, 10)}`, "sts-test.output.txt").value)
      expect(codes(p.issues)).toEqual(["error:line-numbers@2"])
      expect(p.issues[0].message).toContain(`holds line numbers (${start}, ${start + 1}, ${start + 2}, …), not scores`)
      expect(p.issues[0].message).toContain("write the scores alone, one per line")
      expect(p.issues[0].expected).toBe("score [TAB confidence]")
      expect(p.issues[0].found).toBe(`${start}\t0`)
      expect(p.value.scores.length).toBe(0)
    }
  })

  it("names the format's other layout when it has one (the STS Benchmark: GLUE's STS-B.tsv)", () => {
    const reader = Sts.outputReaderWith({ alternative: "use GLUE's layout" })
    const read = reader.read(Text.fromString(numbered(0, 5), "run.txt").value, { label: "test", goldLength: 5 })
    expect(read.issues[0].message).toMatch(/one per line in the order of the input, or use GLUE's layout$/)
  })

  it("scores with confidences, numbers that skip or start elsewhere, and two numbered lines are read as before", () => {
    for (const text of ["4.6\t100\n3.9\t50\n2\t80\n", "0\t1\n1\t2\n3\t3\n", "2\t1\n3\t2\n4\t3\n", "0\t5\n1\t4\n", "0\n1\n2\n3\n"]) {
      const p = Sts.parseOutput(fromString(text))
      expect(codes(p.issues)).not.toContain("error:line-numbers@1")
      expect(p.value.scores.length).toBe(text.trim().split("\n").length)
    }
  })
})

describe("hints for the common mistakes (issue 24)", () => {
  it("a decimal comma: use '.' as the decimal point", () => {
    const p = Sts.parseOutput(fromString("2,5\n4.75\n"))
    expect(p.issues[0].message).toBe('the score on line 1 is not a number; use "." as the decimal point')
  })

  it("';' or commas where a TAB is expected: fields must be separated by a TAB", () => {
    expect(Sts.parseOutput(fromString("2.5;90\n")).issues[0].message).toBe('the score on line 1 is not a number; fields must be separated by a TAB, not ";"')
    expect(Sts.parseOutput(fromString("2.5,90\n")).issues[0].message).toBe("the score on line 1 is not a number; fields must be separated by a TAB, not commas")
    // the gold has one field a line: no separator to get wrong
    expect(Sts.parseGold(fromString("2.5;90\n")).issues[0].message).toBe("the gold score on line 1 is not a number")
  })
})

describe("Format.readRun: a plain run straight from its bytes, as its text would be read", () => {
  const context = { label: "test", goldLength: 3 }
  /** the text path: decoding, the reader `readerFor` picks, both issue lists */
  const byText = (format: Format.Format, text: string) => {
    const decoded = Text.fromString(text, "run.txt")
    const read = Format.readerFor(format, decoded.value).read(decoded.value, context)
    return { value: read.value, issues: [...decoded.issues, ...read.issues] }
  }
  const files = [
    "4.6\n3.9\n0.25\n",
    "-0\n+1.5\n.5\n5.\n007.25\n",
    "4.6\r\n3.9\r\n",
    "\ufeff4.6\n3.9\n",
    "4.6\t100\n3.9\t50\n",
    "# a comment\n4.6\n",
    "4.6\n\n3.9\n",
    "4.6\n3.9",
    "4.6\n3.9\n\n",
    "1e1\n2\n",
    "0\t2.5\n1\t4.75\n2\t0.4\n",
    "index\tprediction\n0\t2.5\n1\t4.75\n2\t0.4\n",
    "12345678901234567\n1\n"
  ]

  it("gives what decoding and reading the text give, issues included, for plain files and every near miss", () => {
    for (const name of ["sts-gs", "stsb-csv"]) {
      const format = Formats.get(name)!
      for (const text of files) {
        const bytes = new TextEncoder().encode(text)
        expect([name, text, Format.readRun(format, bytes, "run.txt", context)]).toEqual([name, text, byText(format, text)])
      }
    }
  })

  it("reads a plain file from its bytes, and a file another reader claims by its first line from its text", () => {
    const sts = Formats.get("sts-gs")!
    const plain = sts.runReaders[0].readPlain!
    expect(plain(new TextEncoder().encode("4.6\n3.9\n"), "run.txt", context)?.value.columns.score).toEqual({ kind: "scores", values: Float64Array.from([4.6, 3.9]) })
    // a GLUE file is never plain (its header), and its reader is the one that reads it
    const glue = new TextEncoder().encode("index\tprediction\n0\t2.5\n1\t4.75\n2\t0.4\n")
    expect(plain(glue, "STS-B.tsv", context)).toBeUndefined()
    expect(Format.readRun(Formats.get("stsb-csv")!, glue, "STS-B.tsv", context).value.columns.score).toEqual({ kind: "scores", values: Float64Array.from([2.5, 4.75, 0.4]) })
  })
})
