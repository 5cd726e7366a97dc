/**
 * Finding and reading a baseline's test input: the files an edition names (`input`, else the gold,
 * whose sentences are the same) in the folders given, parsed with the edition's reader (STS
 * `STS.input.*.txt`, the STS Benchmark csv, SemRel `<lang>_test.csv` with its pair IDs). What the
 * `baseline` command and any other caller share, so that no app finds input files on its own.
 *
 * Requires `FileSystem` and `Path`.
 *
 * @since 0.2.0
 */
import type { Registry} from "@stseval/formats";
import { Issue, SemRel, Sick, Sts, StsBenchmark, Text } from "@stseval/formats"
import { Effect, FileSystem, Option, Path, Schema } from "effect"
import type { StsDataset } from "./Baseline.js"

/** An input that cannot be found or read; the message says which file and what to do. @since 0.2.0 */
export class InputError extends Schema.TaggedError<InputError>()("InputError", {
  message: Schema.String
}) {}

/** Read and decode a text file; an unreadable file or a fatal decoding issue is an `InputError`. @since 0.2.0 */
export const readText = Effect.fnUntraced(function* (file: string) {
  const fs = yield* FileSystem.FileSystem
  const bytes = yield* fs.readFile(file).pipe(Effect.mapError((e) => new InputError({ message: `${file}: cannot read: ${e.message}` })))
  const decoded = Text.decode(bytes, file)
  if (Issue.hasErrors(decoded.issues)) return yield* new InputError({ message: decoded.issues.filter((i) => i.severity === "error").map(Issue.format).join("; ") })
  return decoded.value
})

/** A parser's value, or an `InputError` listing its first errors. @since 0.2.0 */
export const parsedOrFail = <A>(parsed: Issue.Parsed<A>): Effect.Effect<A, InputError> =>
  Issue.hasErrors(parsed.issues)
    ? Effect.fail(new InputError({ message: parsed.issues.filter((i) => i.severity === "error").slice(0, 3).map(Issue.format).join("; ") }))
    : Effect.succeed(parsed.value)

/** The first of `candidates` that exists. @since 0.2.0 */
export const firstExisting = Effect.fnUntraced(function* (candidates: ReadonlyArray<string>) {
  const fs = yield* FileSystem.FileSystem
  for (const c of candidates) if (yield* fs.exists(c).pipe(Effect.orElseSucceed(() => false))) return Option.some(c)
  return Option.none<string>()
})

/**
 * Folders to look for input files in: `input` when given, else the edition's data folder under
 * `dataRoot` and its `input` sibling (the STS 2017 layout).
 *
 * @since 0.2.0
 */
export const inputDirs = (edition: Registry.TaskEdition, input: string | undefined, dataRoot: string, pathApi: Path.Path): ReadonlyArray<string> => {
  if (input !== undefined) return [input]
  if (edition.data === undefined) return []
  const dir = pathApi.join(dataRoot, edition.data.dir)
  return [dir, pathApi.join(pathApi.dirname(dir), "input")]
}

const languagesOf = (spec: Registry.DatasetSpec): readonly [string, string] | undefined => {
  const m = spec.language === undefined ? null : /^([a-z]{2,3})-([a-z]{2,3})$/.exec(spec.language)
  return m === null ? undefined : [m[1], m[2]]
}

/** @since 0.2.0 */
export interface StsInputs {
  readonly datasets: ReadonlyArray<StsDataset>
  /** what was read, and what was skipped and why */
  readonly notes: ReadonlyArray<string>
  /** the STS Benchmark's single csv */
  readonly stsb: boolean
  /** SemEval-2024 Task 1: runs are `pred_<lang>.csv` matched by pair ID */
  readonly semrel: boolean
}

/**
 * The test input of every dataset of an STS edition that can be found: in each folder of `dirs`,
 * the dataset's `input` file (also by its base name, for a flat folder), else its gold file (SemRel:
 * `<lang>_test_with_labels.csv` has the same pairs); `file`, when given, is the input of the one
 * dataset it names (SemRel `eng_test.csv`), or of the single dataset. A dataset without input is
 * skipped with a note; finding none at all is an `InputError`.
 *
 * @since 0.2.0
 */
export const stsInputs = Effect.fnUntraced(function* (edition: Registry.TaskEdition, where: { readonly dirs: ReadonlyArray<string>; readonly file?: string | undefined }) {
  const pathApi = yield* Path.Path
  const stsb = edition.datasets.every((d) => d.goldFormat === "stsb-csv")
  const semrel = edition.datasets.every((d) => d.goldFormat === "semrel-csv")
  const datasets: Array<StsDataset> = []
  const notes: Array<string> = []
  for (const spec of edition.datasets) {
    const names = [spec.input, semrel ? spec.gold : undefined].filter((f): f is string => f !== undefined)
    if (names.length === 0) {
      notes.push(`${spec.name}: no public input, skipped`)
      continue
    }
    let found: Option.Option<string>
    if (where.file !== undefined) {
      const base = pathApi.basename(where.file)
      const mine = edition.datasets.length === 1 || (semrel ? SemRel.parseFileName(base)?.language === spec.name : names.some((n) => pathApi.basename(n) === base))
      if (!mine) continue
      found = Option.some(where.file)
    } else {
      found = yield* firstExisting(where.dirs.flatMap((d) => names.flatMap((n) => [pathApi.join(d, n), pathApi.join(d, pathApi.basename(n))])))
    }
    if (Option.isNone(found)) {
      notes.push(`${spec.name}: ${names.join(" or ")} not found in ${where.dirs.join(" or ")}, skipped`)
      continue
    }
    const text = yield* readText(found.value)
    if (semrel) {
      const pairs = (yield* parsedOrFail(SemRel.parseData(text))).pairs
      datasets.push({ dataset: spec.name, pairs, pairIds: pairs.map((p) => p.pairId) })
    } else {
      const pairs = stsb ? (yield* parsedOrFail(StsBenchmark.parse(text))).rows : (yield* parsedOrFail(Sts.parseInput(text))).pairs
      datasets.push({ dataset: spec.name, pairs, languages: languagesOf(spec) })
    }
  }
  if (datasets.length === 0) {
    return yield* new InputError({
      message: `${edition.id}: no input file found (${notes.join("; ") || `${where.file ?? ""} is not an input of ${edition.id}`}); give the input folder with --input <dir>`
    })
  }
  return { datasets, notes, stsb, semrel } satisfies StsInputs
})

/**
 * The SICK test pairs: `file`, else the edition's `input` or gold file in the first folder of
 * `dirs` that has one. `annotated` is true when every pair carries both gold labels (an annotated
 * test file is its own gold).
 *
 * @since 0.2.0
 */
export const sickInput = Effect.fnUntraced(function* (edition: Registry.TaskEdition, where: { readonly dirs: ReadonlyArray<string>; readonly file?: string | undefined }) {
  const pathApi = yield* Path.Path
  const spec = edition.datasets[0]
  const candidates =
    where.file !== undefined ? [where.file] : where.dirs.flatMap((d) => [spec.input, spec.gold].filter((f) => f !== undefined).map((f) => pathApi.join(d, f)))
  const file = yield* firstExisting(candidates)
  if (Option.isNone(file)) {
    return yield* new InputError({ message: `${edition.id}: no test input found (looked for ${candidates.join(", ") || "nothing"}); give it with --input <file>` })
  }
  const pairs = (yield* parsedOrFail(Sick.parseData(yield* readText(file.value)))).pairs
  const annotated = pairs.length > 0 && pairs.every((p) => p.relatedness !== undefined && p.entailment !== undefined)
  return { file: file.value, pairs, annotated }
})

/** Read a SICK file's pairs (a training or trial file). @since 0.2.0 */
export const sickPairs = Effect.fnUntraced(function* (file: string) {
  return (yield* parsedOrFail(Sick.parseData(yield* readText(file)))).pairs
})
