/**
 * The one CSV reader (`Csv`): RFC 4180 fields, and each record's physical line.
 */
import { describe, expect, it } from "vitest"
import { Csv, Text } from "@stseval/formats"

const bytes = (s: string) => new TextEncoder().encode(s)

describe("Csv", () => {
  it("reads RFC 4180: quotes, doubled quotes, commas and line breaks in quotes, CRLF, a BOM; each record with the line it starts on", () => {
    const csv = Csv.decode(bytes('\uFEFFa,b\r\n"x, ""y""",2\r\n"multi\r\nline",\r\n\r\nlast,3\r\n'), "t.csv")
    expect(csv.issues.filter((i) => i.severity !== "info")).toEqual([])
    expect(csv.records).toEqual([
      { fields: ["a", "b"], line: 1 },
      { fields: ['x, "y"', "2"], line: 2 },
      // a line break inside quotes is one LF, whatever the file's line ending
      { fields: ["multi\nline", ""], line: 3 },
      // the blank line 5 is no record
      { fields: ["last", "3"], line: 6 }
    ])
  })

  it("read: a decoded text file's records, as decode gives them", () => {
    const text = Text.fromString("a,b\n1,2\n", "t.csv").value
    expect(Csv.read(text).records.map((r) => r.fields)).toEqual([
      ["a", "b"],
      ["1", "2"]
    ])
  })

  it("not CSV: an error naming the file, the line and what was expected; the records before it are kept", () => {
    const csv = Csv.decode(bytes('a,b\n1,2\n3,"open\n'), "t.csv")
    expect(csv.records.map((r) => r.fields)).toEqual([
      ["a", "b"],
      ["1", "2"]
    ])
    expect(csv.issues.map((i) => [i.severity, i.code, i.file])).toEqual([["error", "bad-csv", "t.csv"]])
    expect(csv.issues[0].line).toBeGreaterThanOrEqual(3)
    expect(csv.issues[0].expected).toContain("a field holding a comma, a quote or a line break is quoted")
  })

  it("csv-parse's other refusals: a quote inside an unquoted field, a character after a closing quote", () => {
    const inside = Csv.decode(bytes('a,b\n1,x"y\n2,3\n'), "t.csv")
    expect(inside.records.map((r) => r.fields)).toEqual([["a", "b"]])
    expect(inside.issues).toMatchObject([{ severity: "error", code: "bad-csv", line: 2 }])
    const after = Csv.decode(bytes('a,b\n"1"x,2\n'), "t.csv")
    expect(after.issues).toMatchObject([{ severity: "error", code: "bad-csv", line: 2 }])
    expect(after.issues[0].message).toContain('followed by "x"')
  })

  it("a quoted field of 20 MB on one line is read whole; a doubled quote inside it is one quote", () => {
    const big = "x".repeat(20_000_000)
    const csv = Csv.decode(bytes(`PairID,Pred_Score\n"${big}""",0.5\neng-1,0.3\n`), "pred_eng.csv")
    expect(csv.issues.filter((i) => i.severity === "error")).toEqual([])
    expect(csv.records.map((r) => [r.fields[0].length, r.fields[1], r.line])).toEqual([
      [6, "Pred_Score", 1],
      [20_000_001, "0.5", 2],
      [5, "0.3", 3]
    ])
    expect(csv.records[1].fields[0].endsWith('x"')).toBe(true)
  })

  it("another delimiter: a TAB, with the same quoting", () => {
    const text = Text.fromString('a\tb\n"x\ty"\t2\n', "t.tsv").value
    expect(Csv.read(text, { delimiter: "\t" }).records.map((r) => r.fields)).toEqual([
      ["a", "b"],
      ["x\ty", "2"]
    ])
    const bad = Csv.read(Text.fromString('a\tb\n"x",2\n', "t.tsv").value, { delimiter: "\t" })
    expect(bad.issues[0].message).toContain("not by a TAB or the end of the line")
    expect(bad.issues[0].expected).toMatch(/^TAB-separated fields/)
  })

  it("not text: the decoding's error, no records", () => {
    const csv = Csv.decode(new Uint8Array([0x61, 0x2c, 0x00, 0x01, 0x02, 0x0a]), "t.csv")
    expect(csv.records).toEqual([])
    expect(csv.issues.some((i) => i.severity === "error" && i.file === "t.csv")).toBe(true)
  })

  it("quote: only fields that need it", () => {
    expect(["plain", "a,b", 'say "hi"', "two\nlines"].map(Csv.quote)).toEqual(["plain", '"a,b"', '"say ""hi"""', '"two\nlines"'])
  })
})
