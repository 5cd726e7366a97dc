/**
 * `rank --json` writes its document in pieces of whole lines (src/internal/JsonPieces.ts): the
 * same text as `JSON.stringify(document, null, 2)`, never held as one string (issue 34: 2,000
 * STS-B runs' `rank --ci 95 --json` is 4.8 MB of text).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import * as JsonPieces from "../src/internal/JsonPieces.js"
import { runInProcess } from "../src/Main.js"
import { examples } from "./support/cli.js"

class Stamped {
  constructor(readonly at: number) {}
  toJSON() {
    return { stamped: this.at, lines: ["a", "b"] }
  }
}

// the cases JSON.stringify treats apart: empty containers, members it leaves out or writes as null,
// values with toJSON (never split), strings with escaped line breaks, nesting below the split levels
const documents: ReadonlyArray<readonly [string, unknown]> = [
  ["an empty object", {}],
  ["an empty array", []],
  ["a scalar", "text"],
  ["null", null],
  ["members left out", { a: undefined, b: () => 1, c: Symbol("s"), d: 1 }],
  ["only members left out", { a: undefined }],
  ["array holes and absent values", [1, undefined, () => 2, , null, Number.NaN, -0]], // eslint-disable-line no-sparse-arrays
  ["toJSON at every level", { at: new Date(0), list: [new Stamped(1), { inner: new Stamped(2) }], top: new Stamped(3) }],
  ["escaped line breaks and unicode", { "key\nwith break": ["line\nbreak", "é\u2028", "\u001b[2J"], deep: { er: { still: [[{ x: [] }], {}] } } }],
  [
    "a document like rank's",
    {
      format: "f",
      intervals: { level: 0.95, notes: ["n1", "n2"] },
      runs: Array.from({ length: 40 }, (_, i) => ({ id: `run${i}`, datasets: { d: { value: i / 7, ci: { low: 0, high: 1 } } }, flags: [] })),
      rankings: { rankings: [{ entries: [{ rank: 1 }, { rank: 2 }] }] },
      marks: undefined
    }
  ],
  ["lazy arrays at every level", { runs: new JsonPieces.Lazy(30, (i) => ({ id: `run${i}`, list: [i, { at: new JsonPieces.Lazy(2, (j) => j) }] })), none: new JsonPieces.Lazy(0, () => 1), top: [new JsonPieces.Lazy(2, () => undefined)] }]
]

describe("JsonPieces.lines", () => {
  for (const [name, doc] of documents) {
    it(`gives JSON.stringify(…, null, 2)'s text for ${name}, in whole lines of about the size asked`, () => {
      const whole = JSON.stringify(doc, null, 2)
      for (const size of [1, 16, 300, JsonPieces.PIECE]) {
        const pieces = [...JsonPieces.lines(doc, size)]
        expect(pieces.join("\n")).toBe(whole)
        const longestLine = Math.max(...whole.split("\n").map((l) => l.length))
        // a piece is cut at the first line break from `size` characters on
        for (const p of pieces) expect(p.length).toBeLessThanOrEqual(size + longestLine)
      }
    })
  }

  it("makes a lazy array's elements one at a time, as they are written", () => {
    const made: Array<number> = []
    const pieces = JsonPieces.lines({ runs: new JsonPieces.Lazy(100, (i) => (made.push(i), { id: i, text: "x".repeat(50) })) }, 300)
    pieces.next()
    expect(made.length).toBeGreaterThan(0)
    expect(made.length).toBeLessThan(10)
    expect([...pieces].length).toBeGreaterThan(10)
    expect(made).toEqual(Array.from({ length: 100 }, (_, i) => i))
  })

  it("cuts a long document into several pieces", () => {
    const doc = documents[documents.length - 1][1]
    const pieces = [...JsonPieces.lines(doc, 300)]
    expect(pieces.length).toBeGreaterThan(10)
  })
})

describe("rank --json", () => {
  it("reaches stdout in pieces of whole lines, together JSON.stringify's document", async () => {
    // ten SICK runs (the examples' five under two teams' names): about 80 KB of JSON, more than a piece
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-json-pieces-"))
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }))
    const submissions = path.join(examples, "sick2014/submissions")
    for (const name of fs.readdirSync(submissions)) {
      fs.copyFileSync(path.join(submissions, name), path.join(dir, name))
      fs.copyFileSync(path.join(submissions, name), path.join(dir, `Copy${name}`))
    }
    const writes: Array<string> = []
    const code = await runInProcess(["rank", "--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), "--all-runs", "--json", dir], {
      stdout: (s) => writes.push(s),
      stderr: () => undefined,
      env: { ...process.env, COLUMNS: undefined }
    })
    expect(code).toBe(0)
    const out = writes.join("")
    expect(out.length).toBeGreaterThan(JsonPieces.PIECE)
    expect(out).toBe(`${JSON.stringify(JSON.parse(out), null, 2)}\n`)
    expect(writes.length).toBeGreaterThan(1)
    const longestLine = Math.max(...out.split("\n").map((l) => l.length))
    for (const w of writes) {
      expect(w.endsWith("\n")).toBe(true)
      expect(w.length).toBeLessThanOrEqual(JsonPieces.PIECE + longestLine + 1)
    }
  })
})
