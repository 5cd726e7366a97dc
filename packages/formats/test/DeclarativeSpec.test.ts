/**
 * Declarative formats (formats/src/Declarative.ts) beyond JSON Lines' records: the spec's rules,
 * delimited gold and runs read by header name or by position, the run's own layout, comments,
 * labels, and each bad input an issue naming the file, the line and what was expected.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as Declarative from "../src/Declarative.js"
import * as Text from "../src/Text.js"

const text = (content: string, file: string) => Text.fromString(content, file).value
const gold = (spec: Declarative.Spec, content: string) => Declarative.make(spec).readGold(text(content, "gold.csv"))
const run = (spec: Declarative.Spec, content: string) => Declarative.make(spec).runReaders[0].read(text(content, "run.csv"), { label: "d", goldLength: 3 })
const codes = (issues: ReadonlyArray<{ readonly code: string; readonly line?: number }>) => issues.map((i) => [i.code, i.line])

describe("Declarative.Spec: the rules across fields", () => {
  const refused = (input: unknown): string => {
    const result = Schema.decodeUnknownExit(Declarative.Spec)(input)
    return result._tag === "Failure" ? String(result.cause) : "accepted"
  }

  it("exactly one of score and label", () => {
    expect(refused({ type: "delimited", id: "id" })).toContain("give exactly one of `score` (graded) and `label` (labels)")
    expect(refused({ type: "delimited", score: "s", label: "l" })).toContain("give exactly one of")
  })

  it("labels need a label field; a JSON Lines field is named, not numbered", () => {
    expect(refused({ type: "delimited", score: "s", labels: ["a"] })).toContain("`labels` lists the values of a `label` field; there is none")
    expect(refused({ type: "jsonl", score: 2 })).toContain("a JSON Lines field is named, not numbered")
  })

  it("a label listed twice is refused, naming it (accuracy would count it twice)", () => {
    expect(refused({ type: "delimited", label: "l", labels: ["yes", "no", "yes"] })).toContain('"yes" is listed twice')
    expect(refused({ type: "delimited", label: "l", labels: ["yes", "no"] })).toBe("accepted")
  })

  it("a position needs header: false, and a name needs a header, naming the field written the wrong way", () => {
    expect(refused({ type: "delimited", id: 1, score: "s" })).toContain("field 1 is given by position: set `header: false`")
    expect(refused({ type: "delimited", header: false, id: "2", score: 3 })).toContain('"2" is a field name, but a file without a header (header: false) gives fields by 1-based position, an integer: write 2 without quotes')
    expect(refused({ type: "delimited", header: false, id: "pair", score: 3 })).toContain("give its position")
  })

  it("a run with a label where the gold has a score (and the reverse) is refused", () => {
    expect(refused({ type: "delimited", score: "s", run: { label: "l" } })).toContain("the run has a label where the gold has a score")
    expect(refused({ type: "delimited", label: "l", run: { score: "s" } })).toContain("the run has a score where the gold has a label")
  })

  it("a valid spec is accepted; fields 0 and empty names are not", () => {
    expect(refused({ type: "delimited", delimiter: "\t", id: "id", score: "s", dataset: "lang" })).toBe("accepted")
    expect(refused({ type: "delimited", header: false, id: 0, score: 2 })).not.toBe("accepted")
    expect(refused({ type: "delimited", id: "", score: "s" })).not.toBe("accepted")
  })
})

describe("Declarative.make: delimited gold and runs", () => {
  const byId: Declarative.Spec = { type: "delimited", id: "pair_id", score: "Overall", dataset: "lang" }

  it("reads the gold by header names, trimmed, with the dataset of each record; a blank gold score is an unannotated pair, no issue", () => {
    const g = gold(byId, " pair_id ,lang,Overall\np1,eng,4.5\np2,esp,\n")
    expect(g.issues).toEqual([])
    expect(g.value.ids).toEqual(["p1", "p2"])
    expect(g.value.datasets).toEqual(["eng", "esp"])
    const values = (g.value.columns["score"] as { values: Float64Array }).values
    expect(values[0]).toBe(4.5)
    expect(Number.isNaN(values[1])).toBe(true)
  })

  it("a header without a needed field is one bad-header error naming the fields, and nothing is read", () => {
    const g = gold(byId, "pair_id,Overall\np1,4\n")
    expect(codes(g.issues)).toEqual([["bad-header", 1]])
    expect(g.issues[0].message).toBe('the header (line 1) has no "lang" field')
    expect(g.value.length).toBe(0)
  })

  it("a header written with another separator says which one is expected", () => {
    const g = gold({ type: "delimited", id: "id", score: "s" }, "id;s\na;1\n")
    expect(g.issues[0].message).toBe('the header (line 1) has no "id", "s" field; fields must be separated by ","')
  })

  it("run issues name the line: no pair ID, a pair ID twice, not a number, a missing field", () => {
    const r = run(byId, "pair_id,Overall\n,1\np1,2\np1,3\np2,abc\np3\n")
    expect(codes(r.issues)).toEqual([
      ["empty-value", 2],
      ["duplicate-pair", 4],
      ["not-a-number", 5],
      ["field-count", 6],
      ["empty-value", 6]
    ])
    expect(r.issues[1].message).toBe("pair ID p1 on line 4 was already given on line 3")
    expect(r.issues[3].message).toBe("line 6 has no score (Overall)")
  })

  it("a run of its own layout: headerless, TAB-separated, fields by position, with a confidence", () => {
    const spec: Declarative.Spec = { type: "delimited", id: "id", score: "s", run: { header: false, delimiter: "\t", id: 1, score: 2, confidence: 3 } }
    const r = run(spec, "a\t0.5\t90\nb\t1.5\t80\n")
    expect(r.issues).toEqual([])
    expect(r.value.ids).toEqual(["a", "b"])
    expect([...(r.value.columns["score"] as { values: Float64Array }).values]).toEqual([0.5, 1.5])
    expect([...r.value.confidence!]).toEqual([90, 80])
    // one missing confidence: the run has none (an incomplete weight vector is not used)
    expect(run(spec, "a\t0.5\t90\nb\t1.5\t\n").value.confidence).toBeUndefined()
  })

  it("labels: an unknown label is an error naming the allowed ones; an empty run label is missing", () => {
    const spec: Declarative.Spec = { type: "delimited", id: "id", label: "l", labels: ["yes", "no"] }
    const r = run(spec, "id,l\na,yes\nb,maybe\nc,\n")
    expect(codes(r.issues)).toEqual([
      ["unknown-label", 3],
      ["empty-value", 4]
    ])
    expect(r.issues[0].message).toBe('the label "maybe" on line 3 is not one of yes, no')
  })

  it("comment lines are skipped, and lines keep their numbers in the file", () => {
    const r = run({ type: "delimited", id: "id", score: "s", comment: "#" }, "# a note\nid,s\n# another\na,1\n")
    expect(r.issues).toEqual([])
    expect([...r.value.lines]).toEqual([4])
  })

  it("describes itself: match by ID or by line, the run's layout for participants, the extensions", () => {
    const format = Declarative.make({ type: "delimited", delimiter: "\t", header: false, score: 1 })
    expect(format.match).toBe("line")
    expect(format.runLayout).toBe("tab-separated text without a header, one row per pair holding your score, a number (`field 1`); row *i* scores pair *i* of the test input")
    expect(format.runExtensions).toContain(".tsv")
    const spec: Declarative.Spec = { type: "jsonl", id: "id", score: "score" }
    expect(Declarative.make(spec)).toBe(Declarative.make(spec))
  })
})
