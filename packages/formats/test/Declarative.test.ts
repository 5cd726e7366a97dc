/**
 * JSON Lines records as the edition file describes them, held like any other input (issue 31):
 * values nested 100,000 deep are an issue naming the file and the line (not a stack overflow), and
 * a key given twice in a record is an issue: an error when it is a field that is read (which value
 * is meant is ambiguous), a warning otherwise.
 */
import { describe, expect, it } from "vitest"
import * as Declarative from "../src/Declarative.js"
import * as Text from "../src/Text.js"

const format = Declarative.make({ type: "jsonl", id: "id", score: "score" })
const readRun = (text: string) => {
  const parsed = Text.fromString(text, "run.jsonl")
  return format.runReaders[0].read(parsed.value, { label: "eng", goldLength: 3 })
}

describe("JSON Lines records", () => {
  it("a value nested 100,000 deep is an error naming the file and the line, and the other records are read", () => {
    const deep = `{"id":"2","score":${"[".repeat(100_000)}${"]".repeat(100_000)}}`
    const read = readRun(`{"id":"1","score":3.5}\n${deep}\n{"id":"3","score":1}\n`)
    const bad = read.issues.filter((i) => i.severity === "error")
    expect(bad).toHaveLength(1)
    expect(bad[0]).toMatchObject({ code: "bad-json", file: "run.jsonl", line: 2 })
    expect(bad[0].message).toBe("line 2 nests its values more than 64 levels deep; it was not read")
    expect(read.value.ids).toEqual(["1", "3"])
  })

  it("nesting up to the limit is read as before (a field holding an array is no number)", () => {
    const read = readRun(`{"id":"1","score":3.5,"extra":${"[".repeat(60)}${"]".repeat(60)}}\n`)
    expect(read.issues.filter((i) => i.code === "bad-json")).toEqual([])
    expect(read.value.ids).toEqual(["1"])
  })

  it("a field that is read given twice is an error (ambiguous), the record not read; spelled with an escape it is the same key", () => {
    const read = readRun(`{"id":"1","score":3.5,"score":1.0}\n{"id":"2","sc\\u006fre":2,"score":4}\n{"id":"3","score":1}\n`)
    const errors = read.issues.filter((i) => i.code === "bad-json")
    expect(errors.map((i) => [i.severity, i.line, i.field])).toEqual([
      ["error", 1, "score"],
      ["error", 2, "score"]
    ])
    expect(errors[0].message).toBe('line 1 gives the key "score" twice; which value is meant is ambiguous, so the record was not read')
    expect(read.value.ids).toEqual(["3"])
  })

  it("a key that is not read given twice is a warning, and the record is read", () => {
    const read = readRun(`{"id":"1","score":3.5,"note":"a","note":"b"}\n`)
    expect(read.issues.map((i) => [i.severity, i.code, i.field])).toEqual([["warning", "bad-json", "note"]])
    expect(read.value.ids).toEqual(["1"])
  })

  it("keys inside nested objects and inside strings are not the record's keys", () => {
    const read = readRun(`{"id":"1","score":3.5,"meta":{"score":1,"score":2},"text":"\\"score\\":1, \\"id\\""}\n`)
    expect(read.issues.filter((i) => i.code === "bad-json")).toEqual([])
    expect(read.value.ids).toEqual(["1"])
  })
})
