import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Issue, Text } from "@stseval/formats"
import { firstInvalidOffset } from "../src/internal/utf8.js"

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "text")
const load = (name: string) => Text.decode(new Uint8Array(fs.readFileSync(path.join(fixtures, name))), name)
const codes = (issues: ReadonlyArray<Issue.Issue>) => issues.map((i) => `${i.severity}:${i.code}`)
const isIssue = Schema.is(Issue.Issue)

// Every fixture under text/ holds the three scores 1.5, 2 and 3.25, written with one quirk.
const THREE = ["1.5", "2", "3.25"]

describe("Text.decode, limits", () => {
  it("a file with more lines than the limit is refused (too-large) before any line is decoded", () => {
    const t = Text.fromString("1\n2\n3\n4\n", "many.txt", { maxLines: 3 })
    expect(t.value.lines).toEqual([])
    expect(t.issues.map((i) => [i.severity, i.code])).toEqual([["error", "too-large"]])
    expect(t.issues[0].message).toBe("the file has more than 3 lines, the limit; it was not read (the files of these tasks have at most tens of thousands)")
    expect(Text.fromString("1\n2\n3\n", "three.txt", { maxLines: 3 }).value.lines).toEqual(["1", "2", "3"])
  })

  it("the default limits: 256 MiB and 1,000,000 lines (100 times the largest task file)", () => {
    expect(Text.DEFAULT_MAX_BYTES).toBe(256 * 1024 * 1024)
    expect(Text.DEFAULT_MAX_LINES).toBe(1_000_000)
  })
})

describe("Text.decode, hand-made fixtures", () => {
  it("plain LF file: no issues", () => {
    const t = load("lf.txt")
    expect(t.value).toEqual({ file: "lf.txt", lines: THREE, bom: false, lineEnding: "lf", finalNewline: true })
    expect(t.issues).toEqual([])
  })

  it("CRLF endings are recognised and reported as info", () => {
    const t = load("crlf.txt")
    expect(t.value.lines).toEqual(THREE)
    expect(t.value.lineEnding).toBe("crlf")
    expect(codes(t.issues)).toEqual(["info:crlf"])
  })

  it("bare CR endings are recognised and reported as info", () => {
    const t = load("cr.txt")
    expect(t.value.lines).toEqual(THREE)
    expect(t.value.lineEnding).toBe("cr")
    expect(t.value.finalNewline).toBe(true)
    expect(codes(t.issues)).toEqual(["info:bare-cr"])
  })

  it("mixed endings: the line where the ending first changes is given", () => {
    const t = load("mixed.txt") // LF, then CRLF, then CR
    expect(t.value.lines).toEqual(THREE)
    expect(t.value.lineEnding).toBe("mixed")
    expect(t.issues).toHaveLength(1)
    expect(t.issues[0]).toMatchObject({ severity: "info", code: "mixed-line-endings", line: 2 })
  })

  it("a UTF-8 BOM is stripped and reported", () => {
    const t = load("bom.txt")
    expect(t.value.lines).toEqual(THREE)
    expect(t.value.bom).toBe(true)
    expect(codes(t.issues)).toEqual(["info:bom"])
  })

  it("no final newline: the last line is kept and reported", () => {
    const t = load("no-final-newline.txt")
    expect(t.value.lines).toEqual(THREE)
    expect(t.value.finalNewline).toBe(false)
    expect(t.issues).toEqual([expect.objectContaining({ severity: "info", code: "no-final-newline", line: 3 })])
  })

  it("trailing blank lines are kept as lines and reported with where they start", () => {
    const t = load("trailing-blank-lines.txt") // "1.5\n2\n3.25\n\n\n"
    expect(t.value.lines).toEqual([...THREE, "", ""])
    expect(t.issues).toEqual([expect.objectContaining({ severity: "info", code: "trailing-blank-lines", line: 4 })])
    expect(Text.contentEnd(t.value.lines)).toBe(3)
  })

  it("an empty file is an error", () => {
    const t = load("empty.txt")
    expect(t.value.lines).toEqual([])
    expect(codes(t.issues)).toEqual(["error:empty-file"])
  })

  it("a file of blank lines only is an error too", () => {
    expect(codes(load("blank-only.txt").issues)).toEqual(["error:empty-file"])
    // a BOM and nothing else
    expect(codes(Text.decode(new Uint8Array([0xef, 0xbb, 0xbf]), "x").issues)).toEqual(["info:bom", "error:empty-file"])
  })

  it("NUL bytes mean binary data: error with the line of the first NUL", () => {
    const t = load("nul.txt") // "1.5\n2\0\n..."
    expect(t.value.lines).toEqual([])
    expect(t.issues).toEqual([expect.objectContaining({ severity: "error", code: "binary-file", line: 2 })])
    expect(t.issues[0].message).toContain("offset 5")
  })

  it("gzip data is refused, naming the format", () => {
    const t = load("gzip.txt.gz")
    expect(t.issues).toEqual([expect.objectContaining({ severity: "error", code: "compressed-file" })])
    expect(t.issues[0].message).toContain("gzip")
  })

  it("zip data is refused, naming the format", () => {
    const t = load("zip.zip")
    expect(codes(t.issues)).toEqual(["error:compressed-file"])
    expect(t.issues[0].message).toContain("zip")
  })

  it.each([
    ["bzip2", [0x42, 0x5a, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59, 0x00]],
    ["xz", [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00]],
    ["zstd", [0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x00]]
  ])("%s magic bytes are refused as compressed data", (format, bytes) => {
    const t = Text.decode(new Uint8Array(bytes), "x")
    expect(codes(t.issues)).toEqual(["error:compressed-file"])
    expect(t.issues[0].message).toContain(format)
  })

  it("text starting with the letters BZh is still text", () => {
    const t = Text.fromString("BZh is not a word\n", "x")
    expect(t.issues).toEqual([])
    expect(t.value.lines).toEqual(["BZh is not a word"])
  })

  it("invalid UTF-8 (a Latin-1 byte) is an error with the byte offset and line", () => {
    const t = load("latin1.txt") // "1.5\ncaf\xe9\n3.25\n": 0xe9 at offset 7, line 2
    expect(t.value.lines).toEqual([])
    expect(t.issues).toEqual([expect.objectContaining({ severity: "error", code: "invalid-utf8", line: 2 })])
    expect(t.issues[0].message).toContain("offset 7")
    expect(t.issues[0].found).toBe("0xe9 0x0a 0x33 0x2e")
  })

  it("the offset counts the BOM, and a sequence cut short at the end of the file is found", () => {
    const t = Text.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0x62, 0xe2, 0x82]), "x")
    expect(t.issues.at(-1)).toMatchObject({ code: "invalid-utf8", line: 2 })
    expect(t.issues.at(-1)!.message).toContain("offset 7")
  })

  it("UTF-16 text is refused with a hint to save as UTF-8", () => {
    const t = load("utf16le.txt")
    expect(codes(t.issues)).toEqual(["error:invalid-utf8"])
    expect(t.issues[0].message).toContain("UTF-16")
  })

  it("files over the size cap are refused before decoding", () => {
    const t = Text.decode(new Uint8Array(11).fill(0x41), "x", { maxBytes: 10 })
    expect(t.value.lines).toEqual([])
    expect(t.issues).toEqual([expect.objectContaining({ severity: "error", code: "too-large", found: "11 bytes" })])
    expect(Text.DEFAULT_MAX_BYTES).toBe(256 * 1024 * 1024)
  })

  it("keeps a second BOM, inner whitespace and other characters as they are (lossless)", () => {
    const t = Text.fromString("\uFEFF\uFEFFa  \t b\u00e9\u0645\n", "x")
    expect(t.value.lines).toEqual(["\uFEFFa  \t b\u00e9\u0645"])
  })
})

describe("Text.decode, hostile input", () => {
  // Each input is a few MiB of a pathological shape; the decoder must stay linear.
  const MiB = 1024 * 1024
  it.each([
    ["one huge line", () => new Uint8Array(4 * MiB).fill(0x61)],
    ["only bare CRs", () => new Uint8Array(2 * MiB).fill(0x0d)],
    ["CR LF CR LF ... then one bad byte at the very end", () => {
      const b = new Uint8Array(4 * MiB).fill(0x0a)
      for (let i = 0; i < b.length; i += 2) b[i] = 0x0d
      b[b.length - 1] = 0xff
      return b
    }],
    ["NUL after the first 8 KiB (not sniffed) in a long text", () => {
      const b = new Uint8Array(4 * MiB).fill(0x62)
      b[9000] = 0
      return b
    }]
  ])("%s: answers quickly without throwing", (_, make) => {
    const bytes = make()
    // the CPU time this thread spends, not the wall time: what other processes on a loaded machine
    // take from it does not count, a decoder that is not linear does
    const started = process.threadCpuUsage()
    const t = Text.decode(bytes, "x")
    const used = process.threadCpuUsage(started)
    expect((used.user + used.system) / 1000).toBeLessThan(5000)
    expect(t.issues.every(isIssue)).toBe(true)
  })

  it("arbitrary bytes never throw and give a value plus well-formed issues", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        const t = Text.decode(bytes, "x")
        expect(Array.isArray(t.value.lines)).toBe(true)
        expect(t.issues.every(isIssue)).toBe(true)
        // a fatal problem always leaves no lines
        if (Issue.hasErrors(t.issues)) expect(t.value.lines).toEqual([])
      }),
      { numRuns: 500 }
    )
  })

  it("arbitrary bytes with typical magic numbers in front never throw", () => {
    const magic = fc.constantFrom([0x1f, 0x8b], [0x50, 0x4b, 0x03, 0x04], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0x42, 0x5a, 0x68], [])
    fc.assert(
      fc.property(magic, fc.uint8Array({ maxLength: 200 }), (head, tail) => {
        const t = Text.decode(new Uint8Array([...head, ...tail]), "x")
        expect(t.issues.every(isIssue)).toBe(true)
      })
    )
  })

  it("the hand-written UTF-8 validator agrees with the platform's fatal decoder", () => {
    // mostly high bytes, so that multi-byte sequences (valid and not) are common
    const byte = fc.oneof(fc.integer({ min: 0x80, max: 0xff }), fc.integer({ min: 0x20, max: 0x7f }))
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 }), (raw, s) => {
        for (const bytes of [new Uint8Array(raw), new TextEncoder().encode(s)]) {
          let valid = true
          try {
            new TextDecoder("utf-8", { fatal: true }).decode(bytes)
          } catch {
            valid = false
          }
          const at = firstInvalidOffset(bytes)
          expect(at === -1).toBe(valid)
          if (at !== -1) {
            // everything before the offset is valid, and the offset itself starts a bad sequence
            expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, at))).not.toThrow()
          }
        }
      }),
      { numRuns: 1000 }
    )
  })
})

describe("Text.decode, round trip", () => {
  // Lines as a writer produces them: no line breaks, no NUL, valid Unicode; at least one non-blank.
  const lineArb = fc.string({ unit: "binary", maxLength: 30 }).map((s) => ["\r", "\n", "\u0000"].reduce((acc, c) => acc.replaceAll(c, "x"), s))
  const linesArb = fc
    .array(lineArb, { minLength: 1, maxLength: 20 })
    .filter((ls) => ls.some((l) => !Text.isBlank(l)))
    // a first line that starts like a BOM or an archive would (rightly) be read as one
    .filter((ls) => !["\uFEFF", "PK\u0003\u0004", "PK\u0005\u0006", "BZh"].some((m) => ls[0].startsWith(m)))

  it("any lines joined with one kind of ending decode to the same lines", () => {
    fc.assert(
      fc.property(linesArb, fc.constantFrom("\n", "\r\n", "\r"), fc.boolean(), fc.boolean(), (lines, eol, finalNewline, bom) => {
        // "x\n" is one line by definition (the empty piece after a final newline is not a line), so
        // an empty last line only exists followed by its own line ending.
        fc.pre(finalNewline || lines.at(-1) !== "")
        const text = lines.join(eol) + (finalNewline ? eol : "")
        const encoded = new TextEncoder().encode(text)
        const bytes = bom ? new Uint8Array([0xef, 0xbb, 0xbf, ...encoded]) : encoded
        const t = Text.decode(bytes, "x")
        expect(Issue.hasErrors(t.issues)).toBe(false)
        expect(t.value.lines).toEqual(lines)
        expect(t.value.bom).toBe(bom)
        expect(t.value.finalNewline).toBe(finalNewline)
        expect(t.value.lineEnding).toBe(
          lines.length === 1 && !finalNewline ? "none" : eol === "\n" ? "lf" : eol === "\r\n" ? "crlf" : "cr"
        )
      }),
      { numRuns: 300 }
    )
  })
})
