// (re-exported by Report, the entry whose callers catch it)
import { Schema } from "effect"

/**
 * A report option naming what there is not (an unknown layout, column or sort column, intervals
 * `ci` that cannot be drawn): the user's flag or config, so an expected failure. The table
 * builders are synchronous and throw it; an app catches it by class and lets anything else
 * through as a defect.
 *
 * @example
 * ```ts
 * import type { Engine } from "@stseval/scoring"
 * import { Report } from "@stseval/tables"
 *
 * declare const results: Engine.Results
 * try {
 *   Report.tables(results, { layout: ["sick2014-table9"] })
 * } catch (e) {
 *   if (!(e instanceof Report.OptionError)) throw e // a defect
 *   console.error(`${e.option}: ${e.message}`) // "layout: unknown layout sick2014-table9; layouts are ..."
 * }
 * ```
 * @since 0.5.0
 */
export class OptionError extends Schema.TaggedError<OptionError>()("OptionError", {
  /** the option, as the report config names it: `layout`, `columns`, `sortBy`, `ci` */
  option: Schema.String,
  message: Schema.String
}) {}
