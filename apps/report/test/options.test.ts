/**
 * A config whose report options name what there is not (here a layout) is a usage error naming the
 * config file, and nothing is written; the tables throw a typed error for it (`Report.OptionError`).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { scratchDir } from "@stseval/vitest-config/temp"
import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { generate } from "../src/Main.js"

const examples = path.resolve(import.meta.dirname, "../../../examples/sick2014")
const work = scratchDir("report-options")

describe("generate: an unknown layout", () => {
  it("fails with a UsageError naming the config file and the layouts there are; nothing is written", async () => {
    const file = path.join(work, "report.yaml")
    fs.writeFileSync(file, `task: sick2014\ngold: ${examples}/SICK_test_annotated.txt\nsubmissions: ${examples}/submissions\nlayout: sick2014-table9\n`)
    const exit = await Effect.runPromiseExit(generate(file).pipe(Effect.provide(NodeServices.layer)))
    expect(Exit.isFailure(exit)).toBe(true)
    const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
    expect(error).toMatchObject({
      _tag: "UsageError",
      message: `${file}: unknown layout sick2014-table9; layouts are sick2014-table6, sick2014-table7, sts2014-table3, sts2017-table10, stsb-table14, semrel2024-table, generic:<subtask>`
    })
    expect(fs.existsSync(path.join(work, "report"))).toBe(false)
  })
})
