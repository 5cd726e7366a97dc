/**
 * `competition.yaml` read as Codabench reads it: `yaml.safe_load` of PyYAML 6.0.3 through `oyaml`
 * (codalab/codabench c7dbc756, `src/apps/competitions/tasks.py` `unpack_competition`; the versions
 * in `pyproject.toml`). PyYAML implements YAML 1.1, whose implicit types differ from YAML 1.2's: an
 * unquoted `2027-02-07 23:59:59` is a `datetime`, `2027-02-07` a `date`, `yes`/`on`/`off` booleans,
 * `0755` an octal integer.
 *
 * The `yaml` package parses YAML 1.1 too, but its implicit types are not PyYAML's (it resolves
 * `y`/`n` as booleans, `2027-2-7` and single-digit minutes as timestamps, and turns a timestamp
 * into a `Date`, losing the difference between a date and a datetime and the date as written in
 * its own time zone). So the three implicit resolvers that matter here are re-stated from PyYAML's
 * source (`lib/yaml/resolver.py` `Resolver.add_implicit_resolver` for bool, int and timestamp;
 * `lib/yaml/constructor.py` `SafeConstructor.construct_yaml_bool`, `construct_yaml_int`,
 * `construct_yaml_timestamp` and its `timestamp_regexp`) and given to `yaml` as custom tags. The
 * tests check this reader against PyYAML itself.
 *
 * @internal
 */
import { Schema } from "effect"
import * as Yaml from "yaml"

/** A YAML 1.1 timestamp as PyYAML constructs it: a `date` (no time) or a `datetime`. */
export interface Timestamp {
  readonly _tag: "Timestamp"
  /** the scalar as written */
  readonly text: string
  readonly year: number
  readonly month: number
  readonly day: number
  /** absent for a `date` */
  readonly time: { readonly hour: number; readonly minute: number; readonly second: number; readonly microsecond: number } | undefined
  /** minutes east of UTC; absent for a naive datetime (and a date) */
  readonly offsetMinutes: number | undefined
}

export const isTimestamp = (u: unknown): u is Timestamp => typeof u === "object" && u !== null && (u as { _tag?: unknown })._tag === "Timestamp"

// resolver.py: the implicit resolver of tag:yaml.org,2002:timestamp (re.X: whitespace ignored).
const TIMESTAMP_RESOLVER =
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/
// constructor.py: SafeConstructor.timestamp_regexp.
const TIMESTAMP_PARTS =
  /^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?$/
// resolver.py: bool and int (YAML 1.1, with sexagesimal integers).
const BOOL_RESOLVER = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/
const INT_RESOLVER = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** construct_yaml_timestamp: `datetime.date(...)` / `datetime.datetime(...)` raise ValueError on an impossible date or time. */
const constructTimestamp = (text: string, onError: (message: string) => void): Timestamp | string => {
  const m = TIMESTAMP_PARTS.exec(text)
  if (m === null) return text
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) {
    onError(`${text}: day is out of range for month (PyYAML cannot load this date)`)
    return text
  }
  if (m[4] === undefined) return { _tag: "Timestamp", text, year, month, day, time: undefined, offsetMinutes: undefined }
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6])]
  if (hour > 23 || minute > 59 || second > 59) {
    onError(`${text}: the time is out of range (PyYAML cannot load this date)`)
    return text
  }
  const microsecond = m[7] !== undefined && m[7] !== "" ? Number(m[7].slice(0, 6).padEnd(6, "0")) : 0
  const offsetMinutes = m[9] !== undefined ? (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11] ?? 0)) : m[8] !== undefined ? 0 : undefined
  return { _tag: "Timestamp", text, year, month, day, time: { hour, minute, second, microsecond }, offsetMinutes }
}

/** construct_yaml_int, YAML 1.1: `_` ignored, 0b binary, 0x hex, a leading 0 octal, `:` base 60. */
const constructInt = (text: string): number => {
  let value = text.replace(/_/g, "")
  let sign = 1
  if (value[0] === "-" || value[0] === "+") {
    if (value[0] === "-") sign = -1
    value = value.slice(1)
  }
  if (value === "0") return 0
  if (value.startsWith("0b")) return sign * parseInt(value.slice(2), 2)
  if (value.startsWith("0x")) return sign * parseInt(value.slice(2), 16)
  if (value.startsWith("0")) return sign * parseInt(value, 8)
  if (value.includes(":")) return sign * value.split(":").reduce((acc, digits) => acc * 60 + Number(digits), 0)
  return sign * Number(value)
}

const replaced = new Set(["tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:timestamp"])

const pyyamlTags = (tags: Yaml.Tags): Yaml.Tags => [
  ...tags.filter((t) => typeof t === "string" || !replaced.has(t.tag) || t.default !== true),
  { tag: "tag:yaml.org,2002:bool", default: true, test: BOOL_RESOLVER, resolve: (s: string) => ["yes", "true", "on"].includes(s.toLowerCase()) },
  { tag: "tag:yaml.org,2002:int", default: true, test: INT_RESOLVER, resolve: constructInt },
  {
    tag: "tag:yaml.org,2002:timestamp",
    default: true,
    test: TIMESTAMP_RESOLVER,
    resolve: (s: string, onError: (message: string) => void) => constructTimestamp(s, onError)
  }
]

/** Why a text cannot be loaded (PyYAML would raise). */
export class LoadError extends Schema.TaggedError<LoadError>()("LoadError", { message: Schema.String }) {}

/**
 * `yaml.safe_load(text)` as PyYAML does it for the scalars that matter to a competition: booleans,
 * integers and timestamps of YAML 1.1 (a timestamp becomes a `Timestamp`), strings otherwise.
 * Throws a `LoadError` with the parser's message when PyYAML would not load it.
 */
export const safeLoad = (text: string): unknown => {
  const doc = Yaml.parseDocument(text, { version: "1.1", customTags: pyyamlTags, uniqueKeys: false })
  if (doc.errors.length > 0) throw new LoadError({ message: doc.errors[0].message })
  try {
    return doc.toJS({ maxAliasCount: 100 })
  } catch (e) {
    // yaml refuses aliases that expand too far by throwing: an input problem like any other
    throw new LoadError({ message: (e as Error).message })
  }
}

/**
 * YAML text that PyYAML reads back as the same value: written as YAML 1.1, so a string that YAML
 * 1.1 would resolve to another type (a date-time, `yes`, `0755`) is quoted.
 */
export const safeDump = (value: unknown): string => Yaml.stringify(value, { version: "1.1", lineWidth: 0, aliasDuplicateObjects: false })
