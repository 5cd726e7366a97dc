/**
 * A report option naming what there is not is the user's mistake, so a typed error
 * (`Report.OptionError`, docs/architecture.md "Errors") naming the option, which an app turns into
 * exit 2 and lets every other throw through as a defect.
 */
import { describe, expect, it } from "vitest"
import { Presets, Report } from "../src/index.js"
import type { Results } from "../src/index.js"
import { twoTracks } from "./helpers.js"

const results = (): Results.Results =>
  twoTracks(250, [
    { id: "Alpha/run1", team: "Alpha", run: "run1", primary: true, datasets: { "track3.es-es": { pearson: 0.8 }, "track5.en-en": { pearson: 0.7 } }, aggregates: { official: 0.75 } },
    { id: "Beta/run1", team: "Beta", run: "run1", primary: true, datasets: { "track3.es-es": { pearson: 0.6 }, "track5.en-en": { pearson: 0.5 } }, aggregates: { official: 0.55 } }
  ])

describe("Report.OptionError: an option naming what there is not", () => {
  it("an unknown layout id names the layouts there are", () => {
    const f = () => Presets.preset("sts2017-table9", results())
    expect(f).toThrow(Report.OptionError)
    expect(f).toThrow(
      expect.objectContaining({
        _tag: "OptionError",
        option: "layout",
        message: "unknown layout sts2017-table9; layouts are sick2014-table6, sick2014-table7, sts2014-table3, sts2017-table10, stsb-table14, semrel2024-table, generic:<subtask>"
      })
    )
  })

  it("an unknown column names the layout's columns", () => {
    const f = () => Presets.preset("sts2017-table10", results(), { columns: ["rank", "nope"] })
    expect(f).toThrow(Report.OptionError)
    expect(f).toThrow(expect.objectContaining({ _tag: "OptionError", option: "columns" }))
    expect(f).toThrow(/^unknown column nope in layout sts2017-table10; columns are /)
  })

  it("an unknown sort column names the layout", () => {
    const f = () => Presets.preset("sts2017-table10", results(), { sortBy: "nope" })
    expect(f).toThrow(Report.OptionError)
    expect(f).toThrow(expect.objectContaining({ _tag: "OptionError", option: "sortBy", message: "unknown sort column nope in layout sts2017-table10" }))
  })
})
