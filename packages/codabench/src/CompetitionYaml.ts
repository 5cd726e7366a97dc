/**
 * `competition.yaml`, version 2: the part of Codabench's competition definition language that a
 * stseval bundle writes, as an Effect Schema, with the rules Codabench applies when it unpacks a
 * bundle, and a YAML writer whose output Codabench reads back unchanged.
 *
 * Every rule is cited from codalab/codabench at c7dbc756 (v1.25):
 *
 * - `src/apps/competitions/tasks.py` `unpack_competition`: `competition.yaml` at the zip's root,
 *   loaded with `oyaml`'s `yaml.safe_load` (PyYAML 6.0.3, YAML 1.1: an unquoted `2027-02-07
 *   23:59:59` is a `datetime`, see `internal/pyyaml.ts`); `str(version) == '2'` picks the v2 unpacker.
 * - `src/apps/competitions/unpackers/v2.py` `V2Unpacker`: `pages` iterated without a default (so
 *   required), each page file present and not empty (`_unpack_pages`); `tasks` with an `index` and a
 *   `scoring_program` (`_unpack_tasks`); `terms` present and not empty (`_unpack_terms`); phases sorted
 *   by `index`, each with `tasks`, `start` and `end` read by `get_datetime` (`_unpack_phases`).
 * - `src/apps/competitions/unpackers/utils.py` `get_datetime`: a `date` — and a `datetime`, which is
 *   a `date` too — becomes midnight of its date (`datetime.combine(field, time())`); a string is
 *   parsed by dateutil; the time zone is then replaced by the server's (UTC). So a phase date keeps
 *   its time only when it is a quoted string (`codabenchDate`).
 * - `src/apps/competitions/unpackers/base_unpacker.py` `_validate_phase_ordering`: a phase followed
 *   by another needs an end; the next starts strictly after it ("Phases must be sequential",
 *   "Phases dates conflict"); `_unpack_image`: `image` required; `_save_competition`: every phase gets
 *   the FIRST leaderboard.
 * - `src/apps/api/serializers/leaderboards.py` `LeaderboardSerializer.validate_columns` (at least one
 *   column, unique indexes and keys, `computation` with `computation_indexes` pointing at other
 *   columns); `src/apps/leaderboards/models.py` (column `title`/`key` at most 36 characters,
 *   leaderboard `title` 64 and `key` 36, sorting `desc`/`asc`, computations `avg`/`sum`/`min`/`max`);
 *   `src/apps/competitions/models.py` (competition `title` 256, `docker_image` 128, phase `name` 256).
 *
 * @since 0.1.0
 */
import { Effect, FileSystem, Path, Schema } from "effect"
import * as Yaml from "yaml"
import * as PyYaml from "./internal/pyyaml.js"

const NonEmpty = Schema.String.check(Schema.isMinLength(1))
const upTo = (n: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(n))
const Index = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const Positive = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

/**
 * A phase date: `YYYY-MM-DD HH:MM:SS`, UTC. Written quoted (see `stringify`), so that Codabench
 * reads it as a string and keeps its time (`codabenchDate`).
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 * import { Schema } from "effect"
 *
 * const start = Schema.decodeUnknownSync(CompetitionYaml.DateTime)("2026-11-01 00:00:00") // Codabench's date format, "YYYY-MM-DD HH:MM:SS"
 * ```
 * @since 0.1.0
 */
export const DateTime = Schema.String.check(
  Schema.makeFilter((s) => {
    const m = DATE_TIME.exec(s)
    if (m === null) return `expected a date "YYYY-MM-DD HH:MM:SS", got "${s}"`
    const d = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`)
    return (Number.isFinite(d.getTime()) && d.toISOString().startsWith(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`)) || `"${s}" is not a calendar date`
  })
)

/**
 * Write a date the way `DateTime` wants it (UTC).
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * CompetitionYaml.formatDateTime(new Date("2026-11-01T00:00:00Z")) // "2026-11-01 00:00:00"
 * ```
 * @since 0.1.0
 */
export const formatDateTime = (d: Date): string => d.toISOString().slice(0, 19).replace("T", " ")

/**
 * Read a `DateTime` as a UTC instant.
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * const start: Date = CompetitionYaml.parseDateTime(CompetitionYaml.formatDateTime(new Date("2026-11-01T00:00:00Z")))
 * ```
 * @since 0.1.0
 */
export const parseDateTime = (s: string): Date => new Date(`${s.replace(" ", "T")}Z`)

/**
 * How Codabench reads a phase's `start` or `end` as `safe_load` left it: `get_datetime`
 * (`src/apps/competitions/unpackers/utils.py`, c7dbc756). A YAML timestamp, date or datetime,
 * becomes midnight (UTC) of its date as written: `isinstance(field, datetime.date)` holds for a
 * `datetime` too, and `datetime.combine(field, time())` drops its time and zone. A string is parsed
 * (here only the `DateTime` form, `YYYY-MM-DD HH:MM:SS`, is understood) and keeps its time; the
 * zone becomes UTC. Empty is no date.
 *
 * `timeDropped` says that the text carried a time that Codabench throws away.
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * // quoted in competition.yaml: a string, its time kept
 * CompetitionYaml.codabenchDate("2027-02-07 23:59:59") // { instant: 2027-02-07T23:59:59Z, timeDropped: false, text: "2027-02-07 23:59:59" }
 * // unquoted: PyYAML makes it a datetime, and Codabench keeps only its date
 * const loaded = CompetitionYaml.parseAsCodabench("end: 2027-02-07 23:59:59\n")
 * if ("value" in loaded) CompetitionYaml.codabenchDate((loaded.value as { end: unknown }).end) // { instant: 2027-02-07T00:00:00Z, timeDropped: true, text: "2027-02-07 23:59:59" }
 * ```
 * @since 0.3.0
 */
export const codabenchDate = (
  value: unknown
): { readonly instant: Date; readonly timeDropped: boolean; readonly text: string } | { readonly problem: string } | undefined => {
  if (value === undefined || value === null || value === "" || value === false || value === 0) return undefined
  if (PyYaml.isTimestamp(value)) {
    const t = value.time
    return {
      instant: new Date(Date.UTC(value.year, value.month - 1, value.day)),
      timeDropped: t !== undefined && (t.hour !== 0 || t.minute !== 0 || t.second !== 0 || t.microsecond !== 0 || (value.offsetMinutes ?? 0) !== 0),
      text: value.text
    }
  }
  if (typeof value === "string") {
    const m = DATE_TIME.exec(value)
    const d = m !== null ? parseDateTime(value) : undefined
    if (d === undefined || !Number.isFinite(d.getTime()) || formatDateTime(d) !== value) {
      return { problem: `expected a quoted date "YYYY-MM-DD HH:MM:SS" (UTC), got "${value}"` }
    }
    return { instant: d, timeDropped: false, text: value }
  }
  return { problem: `expected a quoted date "YYYY-MM-DD HH:MM:SS" (UTC), got ${JSON.stringify(value)}` }
}

/**
 * A leaderboard column. `key` is what the scoring program writes in `scores.json`.
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * const column: CompetitionYaml.Column = { title: "Pearson", key: "pearson", index: 0, sorting: "desc" }
 * ```
 * @since 0.1.0
 */
export const Column = Schema.Struct({
  title: upTo(36),
  key: upTo(36),
  index: Index,
  sorting: Schema.optionalKey(Schema.Literals(["desc", "asc"])),
  precision: Schema.optionalKey(Index),
  computation: Schema.optionalKey(Schema.Literals(["avg", "sum", "min", "max"])),
  computation_indexes: Schema.optionalKey(Schema.Array(Index)),
  hidden: Schema.optionalKey(Schema.Boolean)
}).check(
  Schema.makeFilter((c) => {
    const indexes = c.computation_indexes ?? []
    if (c.computation !== undefined && indexes.length === 0) return "a column with a computation needs computation_indexes"
    if (indexes.length > 0 && c.computation === undefined) return "computation_indexes without a computation"
    if (indexes.includes(c.index)) return `column ${c.index} refers to itself in computation_indexes`
    return true
  })
)
/** @since 0.1.0 */
export type Column = typeof Column.Type

/**
 * The leaderboard rules Codabench knows (`leaderboards/models.py`).
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 * import { Schema } from "effect"
 *
 * Schema.is(CompetitionYaml.SubmissionRule)("Force_Last") // true
 * ```
 * @since 0.1.0
 */
export const SubmissionRule = Schema.Literals(["Add", "Add_And_Delete", "Add_And_Delete_Multiple", "Force_Last", "Force_Latest_Multiple", "Force_Best"])

/**
 * A leaderboard of a Codabench `competition.yaml`.
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * declare const competition: CompetitionYaml.Competition
 * const boards: ReadonlyArray<CompetitionYaml.Leaderboard> = competition.leaderboards
 * ```
 * @since 0.1.0
 */
export const Leaderboard = Schema.Struct({
  index: Schema.optionalKey(Index),
  title: upTo(64),
  key: upTo(36),
  submission_rule: Schema.optionalKey(SubmissionRule),
  hidden: Schema.optionalKey(Schema.Boolean),
  primary_index: Schema.optionalKey(Index),
  columns: Schema.Array(Column).check(Schema.isMinLength(1))
}).check(
  Schema.makeFilter((l) => {
    const indexes = l.columns.map((c) => c.index)
    if (new Set(indexes).size !== indexes.length) return "columns must have unique indexes"
    const keys = l.columns.map((c) => c.key)
    if (new Set(keys).size !== keys.length) return "columns must have unique keys"
    for (const c of l.columns) {
      for (const i of c.computation_indexes ?? []) if (!indexes.includes(i)) return `column ${c.key}: computation index ${i} is not a column index`
    }
    if (l.primary_index !== undefined && !indexes.includes(l.primary_index)) return `primary_index ${l.primary_index} is not a column index`
    return true
  })
)
/** @since 0.1.0 */
export type Leaderboard = typeof Leaderboard.Type

/**
 * A task: the scoring program and the reference data it reads (paths relative to competition.yaml).
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * declare const competition: CompetitionYaml.Competition
 * const tasks: ReadonlyArray<CompetitionYaml.Task> = competition.tasks // each with its scoring program and reference data
 * ```
 * @since 0.1.0
 */
export const Task = Schema.Struct({
  index: Index,
  name: NonEmpty,
  description: Schema.optionalKey(Schema.String),
  scoring_program: NonEmpty,
  reference_data: Schema.optionalKey(NonEmpty),
  input_data: Schema.optionalKey(NonEmpty),
  ingestion_program: Schema.optionalKey(NonEmpty)
})
/** @since 0.1.0 */
export type Task = typeof Task.Type

/**
 * A phase of a Codabench `competition.yaml`.
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * declare const competition: CompetitionYaml.Competition
 * const phases: ReadonlyArray<CompetitionYaml.Phase> = competition.phases // development, then test
 * ```
 * @since 0.1.0
 */
export const Phase = Schema.Struct({
  index: Index,
  name: upTo(256),
  description: Schema.optionalKey(Schema.String),
  start: DateTime,
  end: Schema.optionalKey(DateTime),
  max_submissions: Schema.optionalKey(Positive),
  max_submissions_per_day: Schema.optionalKey(Positive),
  execution_time_limit: Schema.optionalKey(Positive),
  hide_output: Schema.optionalKey(Schema.Boolean),
  hide_prediction_output: Schema.optionalKey(Schema.Boolean),
  hide_score_output: Schema.optionalKey(Schema.Boolean),
  auto_migrate_to_this_phase: Schema.optionalKey(Schema.Boolean),
  // a folder of the bundle, zipped and offered on the phase's page (`_unpack_phases` in
  // src/apps/competitions/unpackers/v2.py; `zip_if_directory` in base_unpacker.py, c7dbc756)
  starting_kit: Schema.optionalKey(Schema.String),
  tasks: Schema.Array(Index).check(Schema.isMinLength(1))
})
/** @since 0.1.0 */
export type Phase = typeof Phase.Type

/**
 * A page of the competition site (markdown or HTML file).
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * const page: CompetitionYaml.Page = { title: "Evaluation", file: "evaluation.md" }
 * ```
 * @since 0.1.0
 */
export const Page = Schema.Struct({ title: NonEmpty, file: NonEmpty })
/** @since 0.1.0 */
export type Page = typeof Page.Type

/**
 * A v2 `competition.yaml`. `title`, `image` and `terms` are required by the documentation;
 * `pages`, `tasks`, `phases` and `leaderboards` are required by the unpacker (it iterates `pages`
 * without a default). `description` is optional for Codabench; stseval always writes one.
 *
 * @example
 * ```ts
 * import { Bundle, CompetitionYaml } from "@stseval/codabench"
 *
 * declare const written: Bundle.Written
 * const competition: CompetitionYaml.Competition = written.competition
 * const yaml: string = CompetitionYaml.stringify(competition)
 * ```
 * @since 0.1.0
 */
export const Competition = Schema.Struct({
  version: Schema.Literal(2),
  title: upTo(256),
  description: Schema.String,
  image: NonEmpty,
  terms: NonEmpty,
  docker_image: upTo(128),
  registration_auto_approve: Schema.optionalKey(Schema.Boolean),
  enable_detailed_results: Schema.optionalKey(Schema.Boolean),
  show_detailed_results_in_submission_panel: Schema.optionalKey(Schema.Boolean),
  show_detailed_results_in_leaderboard: Schema.optionalKey(Schema.Boolean),
  make_programs_available: Schema.optionalKey(Schema.Boolean),
  make_input_data_available: Schema.optionalKey(Schema.Boolean),
  auto_run_submissions: Schema.optionalKey(Schema.Boolean),
  can_participants_make_submissions_public: Schema.optionalKey(Schema.Boolean),
  forum_enabled: Schema.optionalKey(Schema.Boolean),
  contact_email: Schema.optionalKey(NonEmpty),
  queue: Schema.optionalKey(NonEmpty),
  pages: Schema.Array(Page),
  phases: Schema.Array(Phase).check(Schema.isMinLength(1)),
  tasks: Schema.Array(Task).check(Schema.isMinLength(1)),
  leaderboards: Schema.Array(Leaderboard).check(Schema.isMinLength(1))
}).check(
  Schema.makeFilter((c) => {
    const taskIndexes = c.tasks.map((t) => t.index)
    if (new Set(taskIndexes).size !== taskIndexes.length) return { path: ["tasks"], issue: "duplicate task indexes" }
    const phases = [...c.phases].sort((a, b) => a.index - b.index)
    for (const [i, p] of phases.entries()) {
      for (const t of p.tasks) if (!taskIndexes.includes(t)) return { path: ["phases"], issue: `phase "${p.name}" points to task ${t}, which is not defined` }
      if (i === 0 && p.auto_migrate_to_this_phase === true) return { path: ["phases"], issue: "the first phase cannot be auto-migrated to" }
      if (i === 0) continue
      const before = phases[i - 1]
      // base_unpacker.py `_validate_phase_ordering` (c7dbc756), in its words.
      if (before.end === undefined) return { path: ["phases"], issue: `phase "${before.name}" must have an end time because it has a phase after it` }
      const [start, end] = [parseDateTime(p.start).getTime(), parseDateTime(before.end).getTime()]
      if (start < end) return { path: ["phases"], issue: `phases must be sequential: phase "${p.name}" starts before phase "${before.name}" has ended` }
      if (start === end) return { path: ["phases"], issue: `phases dates conflict: phase "${p.name}" must start after phase "${before.name}" has ended` }
    }
    return true
  })
)
/** @since 0.1.0 */
export type Competition = typeof Competition.Type

/**
 * Validate a parsed `competition.yaml` (e.g. `Yaml.parse` of the file); the error lists every
 * problem Schema found.
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 * import { Effect } from "effect"
 * import * as Yaml from "yaml"
 *
 * declare const text: string // a competition.yaml
 * const competition = await Effect.runPromise(CompetitionYaml.decode(Yaml.parse(text)))
 * ```
 * @since 0.1.0
 */
export const decode = (input: unknown): Effect.Effect<Competition, Schema.SchemaError> =>
  Schema.decodeUnknownEffect(Competition)(input, { onExcessProperty: "error", errors: "all" })

/**
 * The YAML text of a competition, written for PyYAML (YAML 1.1): keys in the order of the value, no
 * anchors, no line folding, and every string that YAML 1.1 would read as something else quoted —
 * above all the phase dates, which Codabench would otherwise cut to midnight (`codabenchDate`).
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * declare const competition: CompetitionYaml.Competition
 * const yaml = CompetitionYaml.stringify(competition) // what the bundle's competition.yaml holds
 * ```
 * @since 0.1.0
 */
export const stringify = (competition: Competition): string => PyYaml.safeDump(Schema.encodeSync(Competition)(competition))

/**
 * Parse a `competition.yaml` as Codabench does (`yaml.safe_load`, YAML 1.1): a YAML timestamp is
 * returned as a `Timestamp` (what PyYAML makes a `date` or `datetime`), not as a string. Fails with
 * the parser's message where PyYAML would fail (including an impossible date such as 2027-02-30).
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * CompetitionYaml.parseAsCodabench("end: 2027-02-07 23:59:59\n")
 * // { value: { end: { _tag: "Timestamp", text: "2027-02-07 23:59:59", year: 2027, month: 2, day: 7, time: { hour: 23, minute: 59, second: 59, microsecond: 0 }, offsetMinutes: undefined } } }
 * const bad = CompetitionYaml.parseAsCodabench("end: 2027-02-30\n")
 * if ("error" in bad) bad.error // "2027-02-30: day is out of range for month (PyYAML cannot load this date) at line 1, ..."
 * ```
 * @since 0.3.0
 */
export const parseAsCodabench = (text: string): { readonly value: unknown } | { readonly error: string } => {
  try {
    return { value: PyYaml.safeLoad(text) }
  } catch (e) {
    if (e instanceof PyYaml.LoadError) return { error: e.message }
    throw e // a defect, not the text's fault
  }
}

/**
 * A YAML 1.1 timestamp as PyYAML loads it (see `parseAsCodabench`): a `date` (`time` undefined) or
 * a `datetime`, with the scalar as written.
 *
 * @since 0.3.0
 */
export type Timestamp = PyYaml.Timestamp

/**
 * A problem with a bundle folder, as Codabench's unpacker would report it.
 *
 * @since 0.1.0
 */
export interface BundleProblem {
  readonly file: string
  readonly message: string
}

/**
 * Check a bundle folder the way Codabench's unpacker reads it: `competition.yaml` at the root with
 * `version: 2` and valid against `Competition`; the logo, the terms and every page exist and are
 * not empty; every task's scoring program (a folder holding `metadata.yaml` or `metadata` with a
 * `command`, or a zip) and reference data exist. Returns every problem found (empty: none).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { CompetitionYaml } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * // what Codabench's unpacker would refuse, checked before uploading
 * const problems = await Effect.runPromise(CompetitionYaml.checkBundle("bundle").pipe(Effect.provide(NodeServices.layer)))
 * problems.map((p) => `${p.file}: ${p.message}`)
 * ```
 * @since 0.1.0
 */
export const checkBundle = (folder: string): Effect.Effect<ReadonlyArray<BundleProblem>, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const problems: Array<BundleProblem> = []
    const yamlFile = path.join(folder, "competition.yaml")
    const text = yield* fs.readFileString(yamlFile).pipe(Effect.option)
    if (text._tag === "None") return [{ file: "competition.yaml", message: "competition.yaml is missing from the bundle's root" }]
    const loaded = parseAsCodabench(text.value)
    if ("error" in loaded) return [{ file: "competition.yaml", message: `Codabench cannot load it (YAML 1.1, as PyYAML reads it): ${loaded.error}` }]
    // Phase dates as Codabench will hold them (get_datetime), so that the ordering is checked on
    // what Codabench checks; a time that Codabench would drop is a problem of its own.
    const dates = readPhaseDates(loaded.value)
    if (dates.problems.length > 0) return dates.problems.map((message) => ({ file: "competition.yaml", message }))
    const decoded = yield* decode(dates.value).pipe(Effect.result)
    if (decoded._tag === "Failure") return [{ file: "competition.yaml", message: decoded.failure.message }]
    const c = decoded.success
    const nonEmptyFile = (relative: string, what: string) =>
      Effect.gen(function* () {
        const content = yield* fs.readFile(path.join(folder, relative)).pipe(Effect.option)
        if (content._tag === "None") problems.push({ file: relative, message: `${what} ${relative} is missing` })
        else if (content.value.length === 0) problems.push({ file: relative, message: `${what} ${relative} is empty` })
      })
    yield* nonEmptyFile(c.image, "the image")
    yield* nonEmptyFile(c.terms, "the terms")
    for (const page of c.pages) yield* nonEmptyFile(page.file, `the page "${page.title}"`)
    for (const task of c.tasks) {
      const program = path.join(folder, task.scoring_program)
      const info = yield* fs.stat(program).pipe(Effect.option)
      if (info._tag === "None") problems.push({ file: task.scoring_program, message: `the scoring program of task "${task.name}" is missing` })
      else if (info.value.type === "Directory") {
        const metadata = yield* Effect.firstSuccessOf([
          fs.readFileString(path.join(program, "metadata.yaml")),
          fs.readFileString(path.join(program, "metadata"))
        ]).pipe(Effect.option)
        const command = metadata._tag === "Some" ? commandOf(metadata.value) : undefined
        if (command === undefined) problems.push({ file: task.scoring_program, message: `the scoring program of task "${task.name}" has no metadata.yaml with a command` })
      }
      if (task.reference_data !== undefined && !(yield* fs.exists(path.join(folder, task.reference_data)).pipe(Effect.orElseSucceed(() => false)))) {
        problems.push({ file: task.reference_data, message: `the reference data of task "${task.name}" is missing` })
      }
    }
    return problems
  })

/**
 * The phases of a loaded `competition.yaml` with `start` and `end` replaced by what Codabench
 * makes of them (`codabenchDate`, as a `DateTime` string), and the problems: a date whose time
 * Codabench drops (an unquoted date-time), a date it cannot read.
 */
const readPhaseDates = (value: unknown): { readonly value: unknown; readonly problems: ReadonlyArray<string> } => {
  if (typeof value !== "object" || value === null || !Array.isArray((value as { phases?: unknown }).phases)) return { value, problems: [] }
  const problems: Array<string> = []
  const phases = ((value as { phases: Array<unknown> }).phases).map((phase) => {
    if (typeof phase !== "object" || phase === null) return phase
    const out: Record<string, unknown> = { ...(phase as Record<string, unknown>) }
    for (const key of ["start", "end"] as const) {
      if (!(key in out)) continue
      const read = codabenchDate(out[key])
      const name = typeof out["name"] === "string" ? out["name"] : String(out["index"])
      if (read === undefined) delete out[key]
      else if ("problem" in read) problems.push(`phase "${name}" ${key}: ${read.problem}`)
      else {
        if (read.timeDropped) {
          problems.push(
            `phase "${name}" ${key}: ${read.text} is written unquoted, so Codabench reads it as ${formatDateTime(read.instant)} (PyYAML makes it a datetime and get_datetime keeps only its date); quote it: ${key}: "${read.text}"`
          )
        }
        out[key] = formatDateTime(read.instant)
      }
    }
    return out
  })
  return { value: { ...(value as Record<string, unknown>), phases }, problems }
}

/**
 * The `command` of a scoring program's `metadata.yaml`, as the compute worker reads it (a YAML
 * mapping with a non-empty `command`), or undefined.
 *
 * @example
 * ```ts
 * import { CompetitionYaml } from "@stseval/codabench"
 *
 * CompetitionYaml.commandOf("command: node /app/program/stseval.mjs codabench score /app/input /app/output\n")
 * // "node /app/program/stseval.mjs codabench score /app/input /app/output"
 * ```
 * @since 0.1.0
 */
export const commandOf = (metadataYaml: string): string | undefined => {
  try {
    const value: unknown = Yaml.parse(metadataYaml)
    if (typeof value !== "object" || value === null) return undefined
    const command = (value as Record<string, unknown>)["command"]
    return typeof command === "string" && command.trim() !== "" ? command : undefined
  } catch {
    return undefined
  }
}
