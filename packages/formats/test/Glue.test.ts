/**
 * GLUE `STS-B.tsv` (header `index<TAB>prediction`): read into scores by test row, so that it scores
 * exactly like the same predictions given as a plain one-score-per-line STS-B run; every file the
 * GLUE server would refuse is an error with its line.
 */
import { describe, expect, it } from "vitest"
import { Glue, Issue, Sts, StsBenchmark, Text } from "@stseval/formats"
import { Pearson, Spearman } from "@stseval/metrics"

const text = (content: string, file = "STS-B.tsv") => Text.fromString(content, file).value
const GOLD = [5, 3.8, 0.5, 2.25, 4, 1]
const goldCsv = GOLD.map((s, i) => `main-news\theadlines\t2016\t${String(i).padStart(4, "0")}\t${s}\tSentence ${i}.\tOther ${i}.\n`).join("")
const gold = Float64Array.from(StsBenchmark.parse(text(goldCsv, "sts-test.csv")).value.rows, (r) => r.score)
const PREDICTIONS = [4.5, 3, 1.25, 2, 4.75, 0.5]

describe("GLUE STS-B.tsv", () => {
  it("is recognised by its header, and scores like the same predictions as a plain run", () => {
    // rows in any order: matched by index
    const order = [3, 0, 5, 1, 4, 2]
    const glue = text(`index\tprediction\n${order.map((i) => `${i}\t${PREDICTIONS[i]}`).join("\n")}\n`)
    expect(Glue.isStsbFile(glue)).toBe(true)
    const parsed = Glue.parseStsb(glue, gold.length)
    expect(parsed.issues).toEqual([])
    expect(Array.from(parsed.value.scores)).toEqual(PREDICTIONS)
    // lines[i]: the physical line holding test row i's prediction
    expect(Array.from(parsed.value.lines)).toEqual([3, 5, 7, 2, 6, 4])
    const plain = Sts.parseOutput(text(PREDICTIONS.map((p) => `${p}\n`).join(""), "sts-test.output.txt"))
    expect(Glue.isStsbFile(text(PREDICTIONS.map((p) => `${p}\n`).join("")))).toBe(false)
    for (const metric of [Pearson.pearson, Spearman.spearman]) {
      const a = metric(parsed.value.scores, gold)
      const b = metric(plain.value.scores, gold)
      expect(a._tag).toBe("Defined")
      expect(a).toEqual(b)
    }
  })

  it("writeStsb writes what parseStsb reads back", () => {
    const written = Glue.writeStsb(PREDICTIONS)
    expect(written.split("\n").slice(0, 2)).toEqual(["index\tprediction", "0\t4.5"])
    expect(Array.from(Glue.parseStsb(text(written), 6).value.scores)).toEqual(PREDICTIONS)
    expect(() => Glue.writeStsb([1, Number.NaN])).toThrow(RangeError)
    expect(() => Glue.writeStsb([-0.1])).toThrow(/row 0/)
  })

  const errorsOf = (content: string, rows = 3) => {
    const parsed = Glue.parseStsb(text(content), rows)
    expect(parsed.value.scores).toHaveLength(0)
    return parsed.issues.filter((i) => i.severity === "error").map((i) => [i.code, i.line])
  }

  it("what the GLUE server refuses is an error with its line", () => {
    expect(errorsOf("0\t1\n1\t2\n2\t3\n")).toEqual([["missing-header", 1]])
    expect(errorsOf("index\tprediction\n0\t1\n1\t5.5\n2\t3\n")).toEqual([["out-of-scale", 3]])
    expect(errorsOf("index\tprediction\n0\t1\n0\t2\n2\t3\n")).toEqual([
      ["duplicate-pair", 3],
      ["missing-pair", undefined]
    ])
    expect(errorsOf("index\tprediction\n0\t1\n1\tNaN\n2\t\n3\t1\nx\t2\n")).toEqual([
      ["non-finite", 3],
      ["empty-value", 4],
      ["unknown-pair", 5],
      ["unknown-pair", 6]
    ])
    expect(errorsOf("index\tprediction\n0\t1\t9\n1\t2\n2\t3\n")).toEqual([
      ["field-count", 2],
      ["missing-pair", undefined]
    ])
    const parsed = Glue.parseStsb(text("index\tprediction\n0\t1\n1\t7\n2\t3\n"), 3)
    expect(parsed.issues[0]).toMatchObject({ file: "STS-B.tsv", field: "prediction", expected: "a number from 0 to 5", found: "7" })
    expect(Issue.format(parsed.issues[0])).toMatch(/^STS-B\.tsv:3: error: .*GLUE server refuses/)
  })
})
