/**
 * The one CSV reader (`Csv`, over csv-parse): RFC 4180 fields, and each record's physical line.
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

  it("not text: the decoding's error, no records", () => {
    const csv = Csv.decode(new Uint8Array([0x61, 0x2c, 0x00, 0x01, 0x02, 0x0a]), "t.csv")
    expect(csv.records).toEqual([])
    expect(csv.issues.some((i) => i.severity === "error" && i.file === "t.csv")).toBe(true)
  })

  it("quote: only fields that need it", () => {
    expect(["plain", "a,b", 'say "hi"', "two\nlines"].map(Csv.quote)).toEqual(["plain", '"a,b"', '"say ""hi"""', '"two\nlines"'])
  })
})
