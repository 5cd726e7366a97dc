/**
 * The process environment the CLI reads (`STSEVAL_DATA`, `XDG_CACHE_HOME`, `HOME` for the data
 * store's default root), as an Effect reference: the real `process.env` by default, a test's own
 * when the CLI runs in-process (`Main.runInProcess`), so nothing leaks between runs.
 */
import { Context } from "effect"

export const Environment = Context.Reference<Readonly<Record<string, string | undefined>>>("@stseval/cli/Environment", {
  defaultValue: () => process.env
})
