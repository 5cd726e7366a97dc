/**
 * `Format.alignById`'s record-by-record case: a run in the gold's order, each ID once, needs no
 * index; whether the gold's IDs are distinct is found once per gold and kept.
 */
import { describe, expect, it } from "vitest"
import * as Declarative from "../src/Declarative.js"
import * as Format from "../src/Format.js"
import * as Text from "../src/Text.js"

const csv = Declarative.make({ type: "delimited", id: "pair_id", score: "Overall" })
const gold = (text: string) => csv.readGold(Text.fromString(text, "gold.csv").value).value
const run = (text: string) => csv.runReaders[0].read(Text.fromString(text, "run.csv").value, { label: "test", goldLength: 3 }).value

describe("Format.alignById", () => {
  it("aligns a run in the gold's order record by record, for every run of the same gold", () => {
    const g = gold("pair_id,Overall\na,1\nb,2\nc,3\n")
    for (let k = 0; k < 2; k++) expect(Format.alignById(g, run("pair_id,Overall\na,1\nb,2\nc,3\n"))).toEqual({ value: { end: 3 }, issues: [] })
  })

  it("indexes a run in the gold's order when the gold repeats an ID, on every call", () => {
    const g = gold("pair_id,Overall\na,1\na,2\nc,3\n")
    expect(g.ids).toEqual(["a", "a", "c"])
    for (let k = 0; k < 2; k++) {
      const { value } = Format.alignById(g, run("pair_id,Overall\na,1\na,2\nc,3\n"))
      expect(value.runIndex).toBeDefined()
    }
  })
})
