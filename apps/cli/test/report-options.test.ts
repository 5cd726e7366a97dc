/**
 * `report` with an option naming what there is not (a layout, column or sort column; intervals
 * the resamples cannot give): one line on stderr saying what there is, exit 2, nothing on stdout.
 * The tables throw a typed error for these (`Report.OptionError`); any other throw is a defect.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { examples, runCli } from "./support/cli.js"

const sick = ["--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), path.join(examples, "sick2014/submissions")]
const tmp = scratchDir("cli-report-options")
const config = (name: string, value: object) => {
  const file = path.join(tmp, `${name}.json`)
  fs.writeFileSync(file, JSON.stringify(value))
  return file
}

describe("report: an option naming what there is not", () => {
  it.each([
    [
      "an unknown layout",
      ["--layout", "sick2014-table9"],
      "unknown layout sick2014-table9; layouts are sick2014-table6, sick2014-table7, sts2014-table3, sts2017-table10, stsb-table14, semrel2024-table, generic:<subtask>"
    ],
    ["an unknown column", ["--config", config("columns", { layout: ["sick2014-table7"], columns: ["nope"] })], "unknown column nope in layout sick2014-table7; columns are run, pearson, spearman, mse, rank"],
    ["an unknown sort column", ["--config", config("sort", { layout: ["sick2014-table7"], sortBy: "nope" })], "unknown sort column nope in layout sick2014-table7"],
    [
      "too few resamples for the intervals",
      ["--config", config("ci", { ci: { level: 95, resamples: 3 } })],
      "ci: resamples: expected at least 41 for a 95% interval (1 + 2 / (1 - level): fewer leave no resample beyond a bound, so the interval is the resamples' range), found 3"
    ]
  ])("%s: exit 2 with the message", async (_, args, message) => {
    const r = await runCli(["report", ...sick, ...args])
    expect(r.stdout).toBe("")
    expect(r.stderr.trimEnd().split("\n")).toEqual([`error: ${message}`])
    expect(r.code).toBe(2)
  })
})
