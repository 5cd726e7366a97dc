/**
 * The ids of the preset layouts, apart from the layouts themselves so that a command line can list
 * them in its help without loading the tables (`Presets.presets` is keyed by exactly these).
 *
 * @since 0.4.0
 */

/**
 * The preset layouts' ids, in `Presets.presets`' order.
 *
 * @example
 * ```ts
 * import * as PresetIds from "@stseval/tables/PresetIds"
 *
 * PresetIds.ids.includes("sts2017-table10") // true
 * ```
 * @since 0.4.0
 */
export const ids = ["sick2014-table6", "sick2014-table7", "sts2014-table3", "sts2017-table10", "stsb-table14", "semrel2024-table"] as const

/**
 * A preset layout's id.
 *
 * @since 0.4.0
 */
export type PresetId = (typeof ids)[number]
