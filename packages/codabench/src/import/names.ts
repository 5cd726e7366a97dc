/** What a downloaded entry's name and a CSV date say (Codabench's naming, per release). */

/**
 * What a downloaded entry's name says. v1.23+: `{id}_{owner}_PhaseId{phase}_{YYYY-MM-DD}:{MM}-{SS}_{file}`
 * with `:` `/` `\` turned into `_` by the browser; the owner is a Django username (`[\w.@+-]`, so it
 * may hold `_`): it runs to the first `_PhaseId<digits>_<date>_` after the id, or, given `owner`
 * (the CSV's Owner of that id), is that owner when the name starts with it: a username may hold
 * those marks itself (`bob_PhaseId1_2027-02-08_00-12_x`).
 *
 * @since 0.3.0
 */
export type DownloadName =
  | {
      readonly _tag: "v1.23+"
      readonly id: string
      readonly owner: string
      readonly phaseId: string
      readonly day: string
      readonly minute: number
      readonly second: number
      readonly file: string
    }
  | { readonly _tag: "v1.22-"; readonly id: string; readonly file: string }
  | { readonly _tag: "other"; readonly file: string }

const V123 = /^(\d+)_(.+?)_PhaseId(\d+)_(\d{4}-\d{2}-\d{2})[_:](\d{2})-(\d{2})_(.*)$/s
const V122 = /^ID_(\d+)_(.*)$/s

/** `{id}_{owner}_PhaseId...` read with `owner` known (V123's groups), or null when the name does not start so. */
const ownerLayout = (name: string, owner: string): RegExpExecArray | null => {
  const id = /^\d+_/.exec(name)?.[0]
  if (id === undefined || !name.startsWith(`_${owner}_`, id.length - 1)) return null
  const rest = /^PhaseId(\d+)_(\d{4}-\d{2}-\d{2})[_:](\d{2})-(\d{2})_(.*)$/s.exec(name.slice(id.length + owner.length + 1))
  if (rest === null) return null
  return Object.assign([name, id.slice(0, -1), owner, ...rest.slice(1)], { index: 0, input: name, groups: undefined }) as RegExpExecArray
}

/**
 * Read an entry's name as Codabench wrote it (see the module's doc).
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * Import.parseDownloadName("7_bob_PhaseId1_2027-02-08_00-12_submission.zip")
 * // { _tag: "v1.23+", id: "7", owner: "bob", phaseId: "1", day: "2027-02-08", minute: 0, second: 12, file: "submission.zip" }
 * Import.parseDownloadName("ID_7_submission.zip") // { _tag: "v1.22-", id: "7", file: "submission.zip" }
 * Import.parseDownloadName("ECNU_run1.zip") // { _tag: "other", file: "ECNU_run1.zip" }
 * ```
 * @since 0.3.0
 */
export const parseDownloadName = (name: string, owner?: string): DownloadName => {
  // A username may itself hold "_PhaseId1_2027-02-08_00-12_" (Django allows [\w.@+-]), and then
  // the name has two such marks: read at the owner the CSV names, when it names one that fits.
  const m = (owner !== undefined ? ownerLayout(name, owner) : null) ?? V123.exec(name)
  if (m !== null && calendarDay(m[4])) {
    return { _tag: "v1.23+", id: m[1], owner: m[2], phaseId: m[3], day: m[4], minute: Number(m[5]), second: Number(m[6]), file: m[7] }
  }
  const old = V122.exec(name)
  if (old !== null) return { _tag: "v1.22-", id: old[1], file: old[2] }
  return { _tag: "other", file: name }
}

const calendarDay = (day: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (m === null) return false
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i

/**
 * An instant: ISO 8601 (`2024-07-26T11:17:05.123456Z`, DRF's form in the CSV), Codabench's
 * `2024-07-26 11:17`, or a day (`2024-07-26`, its start); without a zone it is UTC (the server's
 * zone). Anything else — `12`, `1`, a day that is not in the calendar (`2014-02-30`), an hour 24 —
 * is `undefined`, never another date.
 *
 * @example
 * ```ts
 * import { Import } from "@stseval/codabench"
 *
 * Import.parseInstant("2027-02-08T13:00:12.345678Z") // 2027-02-08T13:00:12.345Z
 * Import.parseInstant("2027-02-08 13:00") // 2027-02-08T13:00:00.000Z (no zone: UTC)
 * Import.parseInstant("2014-02-30") // undefined: not in the calendar
 * ```
 * @since 0.1.0
 */
export const parseInstant = (s: string): Date | undefined => {
  const m = INSTANT.exec(s.trim())
  if (m === null || !calendarDay(m[1])) return undefined
  const [hour, minute, second] = [Number(m[2] ?? 0), Number(m[3] ?? 0), Number(m[4] ?? 0)]
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const zone = m[6] === undefined || m[6].toUpperCase() === "Z" ? "Z" : m[6].includes(":") ? m[6] : `${m[6].slice(0, 3)}:${m[6].slice(3)}`
  if (zone !== "Z" && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return undefined
  const fraction = m[5] !== undefined ? m[5].slice(0, 4) : ""
  const d = new Date(`${m[1]}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:${String(second).padStart(2, "0")}${fraction}${zone}`)
  return Number.isFinite(d.getTime()) ? d : undefined
}
