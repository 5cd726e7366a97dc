import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { Config, Presets, Table } from "../src/index.js"
import { hostileRuns } from "./fixtures.js"
import { marked, ranked } from "./helpers.js"

const here = path.dirname(fileURLToPath(import.meta.url))

describe("Config", () => {
  it("reads a YAML config file into layout options", () => {
    const parsed = Config.parse(fs.readFileSync(path.join(here, "fixtures", "report-config.yaml"), "utf8"), "report-config.yaml")
    expect(parsed._tag).toBe("Ok")
    if (parsed._tag !== "Ok") return
    expect(parsed.config).toEqual({
      layout: ["sts2017-table10"],
      runs: "primary",
      columns: ["run", "track5.en-en", "primary"],
      decimals: 1,
      caption: "Our shared task: results",
      test: "steiger1980",
      alpha: 0.01,
      headers: { "track5.en-en": "English" },
      latex: { standalone: true, engine: "pdflatex" }
    })
    // the runs ranked as the config says (primary runs only), the marks with its test and alpha (what `Report.tables` does)
    const results = marked(ranked(hostileRuns(), undefined, { primaryOnly: parsed.config.runs === "primary" }), { test: parsed.config.test, alpha: parsed.config.alpha })
    const t = Presets.preset("sts2017-table10", results, parsed.config)
    expect(t.columns.map((c) => c.header)).toEqual(["Run", "English", "Primary"])
    expect(Table.cellText(t.sections[0].rows[0].cells["track5.en-en"], t.columns[1])).toBe("85.0")
    expect(t.caption).toBe("Our shared task: results")
    expect(t.footnotes).toContain("Bold in English: not significantly different from the best ranked run (Steiger's z, Holm-adjusted, p > 0.01).")
    // Steiger's z compares one correlation: the Primary column (a mean over two tracks) keeps its bootstrap
    expect(t.footnotes).toContain(
      "Bold in Primary: not significantly different from the best ranked run (paired bootstrap stratified by dataset (unweighted mean), 1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted, p > 0.01)."
    )
  })
  it("reads JSON (with a BOM)", () => {
    const parsed = Config.parse('\uFEFF{ "layout": ["stsb-table14"], "decimals": { "dev": 1 }, "runs": "all" }', "c.json")
    expect(parsed).toEqual({ _tag: "Ok", config: { layout: ["stsb-table14"], decimals: { dev: 1 }, runs: "all" } })
  })
  it("names every bad key and value", () => {
    const parsed = Config.parse("runs: some\nalpha: 2\ntest: tea\ncolums: [a]\ndecimals: -1\nlatex: { engine: xetex }\n", "bad.yaml")
    expect(parsed._tag).toBe("Error")
    if (parsed._tag !== "Error") return
    expect(parsed.errors).toEqual([
      expect.stringMatching(/^bad\.yaml: colums: expected one of the keys layout, columns/),
      'bad.yaml: runs: expected primary or all, found "some"',
      "bad.yaml: alpha: expected a number between 0 and 1, found 2",
      expect.stringMatching(/^bad\.yaml: test: expected one of .*williams1959.*, found "tea"$/),
      "bad.yaml: decimals: expected an integer 0-10 or an object of column key -> integer 0-10, found -1",
      'bad.yaml: latex.engine: expected pdflatex or unicode, found "xetex"'
    ])
  })
  it("reports a syntax error with the file name", () => {
    const parsed = Config.parse("{ not json", "c.json")
    expect(parsed._tag === "Error" && parsed.errors[0]).toMatch(/^c\.json: not valid JSON/)
    const y = Config.parse("a: [1, 2", "c.yaml")
    expect(y._tag === "Error" && y.errors[0]).toMatch(/^c\.yaml: not valid YAML/)
  })
  it("an empty file is an empty config", () => {
    expect(Config.parse("", "empty.yaml")).toEqual({ _tag: "Ok", config: {} })
  })
})

describe("Config: ci (intervals on every figure and rank)", () => {
  it("takes a level (95 or 0.95) or { level, resamples, seed }", () => {
    expect(Config.parse("ci: 95\n")).toEqual({ _tag: "Ok", config: { ci: { level: 95 } } })
    expect(Config.parse("ci: { level: 0.9, resamples: 200, seed: 7 }\nrankIntervals: false\n")).toEqual({
      _tag: "Ok",
      config: { ci: { level: 0.9, resamples: 200, seed: 7 }, rankIntervals: false }
    })
  })

  it("names the key and what it takes for a bad value or an unknown key", () => {
    expect(Config.parse("ci: 150\n", "c.yaml")).toEqual({ _tag: "Error", errors: ["c.yaml: ci: expected a confidence level (95 or 0.95) or an object { level, resamples, seed }, found 150"] })
    const unknown = Config.parse("ci: { level: 95, draws: 10 }\n", "c.yaml")
    expect(unknown).toEqual({ _tag: "Error", errors: ['c.yaml: ci.draws: expected level, resamples or seed, found "draws"'] })
    const resamples = Config.parse("ci: { level: 95, resamples: 0 }\n", "c.yaml")
    expect(resamples._tag === "Error" && resamples.errors[0]).toMatch(/^c\.yaml: ci/)
  })
})
