/**
 * What `validate` and `score` print for people, as lines (one per `Console.log` of the command):
 * the commands print them, and the check page (`stseval page check`) shows the same lines, so a
 * participant reads in the browser exactly what the CLI says.
 */
import { Issue } from "@stseval/formats"
import type { Registry } from "@stseval/formats"
import type { Engine, Uncertainty } from "@stseval/scoring"
import * as TextView from "./TextView.js"
import type { Palette } from "./Colour.js"
import * as ValidationJson from "./ValidationJson.js"

export interface TextOptions {
  readonly verbose: boolean
  readonly width: number | undefined
}

/** The gold's own issues, when it has any. */
const goldLines = (results: Engine.Results, c: Palette, verbose: boolean): ReadonlyArray<string> => {
  const lines = TextView.issues(results.gold.issues, c, { verbose, indent: "" })
  return lines.length > 0 ? [`${lines.join("\n")}\n`] : []
}

/** `validate`'s text: the header, the gold's issues, each run's checks, the folder's issues and the verdict (`nothing`: `Task.nothingToScore`). */
export const validation = (scored: Engine.Results, c: Palette, options: TextOptions, nothing: string | undefined): ReadonlyArray<string> => {
  const { valid, runs } = ValidationJson.document(scored)
  const folderLines = TextView.issues(scored.issues, c, { verbose: options.verbose, indent: "" })
  const bad = runs.filter((r) => r.status !== "valid").length
  const checked = scored.runs
  return [
    `${TextView.header(scored, c)}\n`,
    ...goldLines(scored, c, options.verbose),
    ...checked.map((v) => `${TextView.validation(v, c, options)}\n`),
    ...(folderLines.length > 0 ? [`${folderLines.join("\n")}\n`] : []),
    nothing !== undefined
      ? c.red(nothing)
      : valid
        ? c.green(`${checked.length} run(s): all valid`)
        : c.red(`${checked.length} run(s): ${bad} with errors${Issue.hasErrors(scored.gold.issues) ? "; the gold has errors" : ""}`)
  ]
}

/** `score`'s text: the header, the gold's issues, each run's figures (with intervals when given) and the intervals' note. */
export const scores = (
  results: Engine.Results,
  edition: Registry.TaskEdition,
  d: TextView.Decimals,
  c: Palette,
  options: TextOptions & { readonly intervals: Uncertainty.ResultIntervals | undefined }
): ReadonlyArray<string> => [
  `${TextView.header(results, c)}\n`,
  ...goldLines(results, c, options.verbose),
  ...results.runs.map((run) => `${TextView.scored(run, edition, d, c, options)}\n`),
  ...(options.intervals !== undefined ? [[TextView.intervalsNote(options.intervals, c), ...options.intervals.notes.map((n) => c.dim(`  ${n}`))].join("\n")] : [])
]
