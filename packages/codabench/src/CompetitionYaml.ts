/**
 * `competition.yaml`, version 2: the part of Codabench's competition definition language that a
 * stseval bundle writes, as an Effect Schema, with the rules Codabench applies when it unpacks a
 * bundle, and a YAML writer.
 *
 * Sources (codalab/codabench): `documentation/docs/Organizers/Benchmark_Creation/Yaml-Structure.md`
 * (keys and types), `src/apps/competitions/unpackers/v2.py` and `base_unpacker.py` (what is read and
 * required: `pages`, `tasks` with `index` and `scoring_program`, `terms`, `image`, `phases` with
 * `tasks`, sequential phase dates, `leaderboards`; every phase gets the FIRST leaderboard),
 * `src/apps/api/serializers/leaderboards.py` (columns: at least one, unique indexes and keys,
 * `computation` with `computation_indexes` that point to other columns), `src/apps/leaderboards/models.py`
 * (column `title`/`key` at most 36 characters, leaderboard `title` 64, `key` 36, sorting `desc`/`asc`,
 * computations `avg`/`sum`/`min`/`max`) and `src/apps/competitions/models.py` (competition `title`
 * 256, `docker_image` 128, phase `name` 256). `src/apps/competitions/tasks.py` picks the v2 unpacker
 * only when `version` is 2.
 *
 * @since 0.1.0
 */
import { Effect, FileSystem, Path, Schema } from "effect"
import * as Yaml from "yaml"

const NonEmpty = Schema.String.check(Schema.isMinLength(1))
const upTo = (n: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(n))
const Index = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const Positive = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

/**
 * A phase date as the documentation asks for it: `YYYY-MM-DD HH:MM:SS`, UTC (Codabench replaces the
 * time zone with the server's, UTC).
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
      if (before.end === undefined) return { path: ["phases"], issue: `phase "${before.name}" must have an end because a phase follows it` }
      if (parseDateTime(p.start).getTime() <= parseDateTime(before.end).getTime()) {
        return { path: ["phases"], issue: `phase "${p.name}" must start after phase "${before.name}" has ended` }
      }
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
 * The YAML text of a competition: keys in the order of the value, no anchors, no line folding.
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
export const stringify = (competition: Competition): string =>
  Yaml.stringify(Schema.encodeSync(Competition)(competition), { lineWidth: 0, aliasDuplicateObjects: false })

/**
 * A problem with a bundle folder, as Codabench's unpacker would report it.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { CompetitionYaml } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const problems: ReadonlyArray<CompetitionYaml.BundleProblem> = await Effect.runPromise(CompetitionYaml.checkBundle("bundle").pipe(Effect.provide(NodeServices.layer)))
 * ```
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
    let parsed: unknown
    try {
      parsed = Yaml.parse(text.value)
    } catch (e) {
      return [{ file: "competition.yaml", message: `not valid YAML: ${(e as Error).message}` }]
    }
    const decoded = yield* decode(parsed).pipe(Effect.result)
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
