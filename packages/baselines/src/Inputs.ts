/**
 * Finding and reading a baseline's inputs (what `stseval baseline` reads): an edition's test input
 * and SICK's training and trial data, from the data store (`<data root>/<data.dir>` and its `input`
 * sibling) unless a path is given.
 *
 * @since 0.2.0
 */
import * as nodePath from "node:path"
import { DataStore, Files, Issue, SemRel, Sick, Sts, StsBenchmark, Text } from "@stseval/formats"
import type { Registry } from "@stseval/formats"
import { Effect, FileSystem, Option, Schema } from "effect"
import type { StsDataset } from "./Baseline.js"
import * as Run from "./Run.js"

/**
 * An input that cannot be found or read, with what to do.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Inputs } from "@stseval/baselines"
 * import { Effect } from "effect"
 *
 * const file = Inputs.readText("STS.input.headlines.txt").pipe(
 *   Effect.catchTag("BaselineInputError", (e: Inputs.InputError) => Effect.fail(`no baseline run: ${e.message}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.2.0
 */
export class InputError extends Schema.TaggedError<InputError>()("BaselineInputError", {
  message: Schema.String
}) {}

/**
 * Where to look.
 *
 * @since 0.2.0
 */
export interface Where {
  /** a file or folder given by the user (`--input`) */
  readonly input?: string | undefined
  /** the data store root (default `DataStore.defaultRoot()`) */
  readonly dataRoot?: string | undefined
}

const exists = (p: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    return yield* fs.exists(p).pipe(Effect.orElseSucceed(() => false))
  })

/** The first of `candidates` that exists. */
const firstExisting = Effect.fnUntraced(function* (candidates: ReadonlyArray<string>) {
  for (const c of candidates) if (yield* exists(c)) return Option.some(c)
  return Option.none<string>()
})

/**
 * Read and decode a text file; an unreadable file or a fatal decoding issue is an `InputError`.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Inputs } from "@stseval/baselines"
 * import { Effect } from "effect"
 *
 * // decoded (BOM, line endings), with the issues found on the way
 * const file = await Effect.runPromise(Inputs.readText("STS.input.headlines.txt").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.2.0
 */
export const readText = Effect.fnUntraced(function* (file: string) {
  // formats' reader: a regular file only, capped (an input of a baseline is outside input like a run)
  const bytes = yield* Files.readFile(file, { what: "the input" }).pipe(Effect.mapError((e) => new InputError({ message: e.message })))
  const decoded = Text.decode(bytes, file)
  if (Issue.hasErrors(decoded.issues)) return yield* new InputError({ message: decoded.issues.filter((i) => i.severity === "error").map(Issue.format).join("; ") })
  return decoded.value
})

const parsedOrFail = <A>(parsed: Issue.Parsed<A>) =>
  Issue.hasErrors(parsed.issues)
    ? Effect.fail(new InputError({ message: parsed.issues.filter((i) => i.severity === "error").slice(0, 3).map(Issue.format).join("; ") }))
    : Effect.succeed(parsed.value)

/**
 * The folders to look for input files in: `input`, else the edition's data folder and its `input`
 * sibling.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Inputs } from "@stseval/baselines"
 *
 * // where an edition's inputs are looked for: the given folder, else the data store's
 * const dirs = Inputs.inputDirs(Registry.get("sts2017")!, { dataRoot: "/data/stseval" })
 * ```
 * @since 0.2.0
 */
export const inputDirs = (edition: Registry.TaskEdition, where: Where): ReadonlyArray<string> => {
  if (where.input !== undefined) return [where.input]
  if (edition.data === undefined) return []
  const dir = nodePath.join(where.dataRoot ?? DataStore.defaultRoot(), edition.data.dir)
  return [dir, nodePath.join(nodePath.dirname(dir), "input")]
}

const isFile = (p: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    return yield* fs.stat(p).pipe(
      Effect.map((s) => s.type === "File"),
      Effect.orElseSucceed(() => false)
    )
  })

/**
 * A SICK input, read.
 *
 * @since 0.2.0
 */
export interface SickInput {
  readonly file: string
  readonly pairs: ReadonlyArray<Sick.SickPair>
  /** every pair carries gold relatedness and entailment (`SICK_test_annotated.txt`): it is its own gold */
  readonly annotated: boolean
}

/**
 * The SICK test input: the file given, else the edition's input or gold file in the data store.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Baseline, Inputs } from "@stseval/baselines"
 * import { Effect } from "effect"
 *
 * const input = await Effect.runPromise(Inputs.sickInput(Registry.get("sick2014")!, { input: "SICK_test_annotated.txt" }).pipe(Effect.provide(NodeServices.layer)))
 * const made = Baseline.sick("overlap", input.pairs)
 * ```
 * @since 0.2.0
 */
export const sickInput = Effect.fnUntraced(function* (edition: Registry.TaskEdition, where: Where) {
  const spec = edition.datasets[0]
  const given = where.input !== undefined && (yield* isFile(where.input)) ? where.input : undefined
  const candidates =
    given !== undefined
      ? [given]
      : inputDirs(edition, where).flatMap((d) => [spec.input, spec.gold].filter((f) => f !== undefined).map((f) => nodePath.join(d, f)))
  const file = yield* firstExisting(candidates)
  if (Option.isNone(file)) {
    return yield* new InputError({ message: `${edition.id}: no test input found (looked for ${candidates.join(", ") || "nothing"}); give it with --input <file>` })
  }
  const pairs = (yield* parsedOrFail(Sick.parseData(yield* readText(file.value)))).pairs
  const annotated = pairs.length > 0 && pairs.every((p) => p.relatedness !== undefined && p.entailment !== undefined)
  return { file: file.value, pairs, annotated } satisfies SickInput
})

/**
 * SICK training pairs: `train`, else `SICK_train.txt` beside the input, plus `SICK_trial.txt` with
 * `withTrial` (the organisers tuned on train + trial). `notes` say what was read.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Inputs } from "@stseval/baselines"
 * import { Effect } from "effect"
 *
 * // the training pairs beside the test input (SICK_train.txt, with SICK_trial.txt)
 * const { pairs, notes } = await Effect.runPromise(
 *   Inputs.sickTraining("data/SICK_test_annotated.txt", { withTrial: true, needed: "the majority baseline" }).pipe(Effect.provide(NodeServices.layer))
 * )
 * ```
 * @since 0.2.0
 */
export const sickTraining = Effect.fnUntraced(function* (
  inputFile: string,
  options: { readonly train?: string | undefined; readonly withTrial?: boolean | undefined; readonly needed: string }
) {
  const beside = (f: string) => nodePath.join(nodePath.dirname(inputFile), f)
  const trainFile = options.train !== undefined ? Option.some(options.train) : yield* firstExisting([beside("SICK_train.txt")])
  if (Option.isNone(trainFile)) return yield* new InputError({ message: `${options.needed} needs the training data: give --train <SICK_train.txt>` })
  // every use (majority, probability, --tune's thresholds) learns from the entailment labels
  const labelled = Effect.fnUntraced(function* (file: string) {
    const read = yield* parsedOrFail(Sick.parseData(yield* readText(file)))
    const needs = `${options.needed} needs training pairs with entailment labels`
    if (!read.hasEntailment) {
      return yield* new InputError({ message: `${file}:1: ${needs}: expected an ${Sick.ENTAILMENT} column (${Sick.ENTAILMENT_LABELS.join(" / ")})` })
    }
    // the labels' column alone learns nothing (Baseline.sick refuses an empty distribution)
    if (read.pairs.length === 0) return yield* new InputError({ message: `${file}:2: ${needs}: expected a pair after the header, found none` })
    return read.pairs
  })
  let pairs = yield* labelled(trainFile.value)
  const notes = [`train: ${trainFile.value} (${pairs.length} pairs)`]
  const trial = options.withTrial === true && options.train === undefined ? yield* firstExisting([beside("SICK_trial.txt")]) : Option.none<string>()
  if (Option.isSome(trial)) {
    const trialPairs = yield* labelled(trial.value)
    pairs = [...pairs, ...trialPairs]
    notes.push(`trial: ${trial.value} (${trialPairs.length} pairs)`)
  }
  return { pairs, notes }
})

const languagesOf = (spec: Registry.DatasetSpec): readonly [string, string] | undefined => {
  const m = spec.language === undefined ? null : /^([a-z]{2,3})-([a-z]{2,3})$/.exec(spec.language)
  return m === null ? undefined : [m[1], m[2]]
}

/**
 * What `stsInputs` found.
 *
 * @since 0.2.0
 */
export interface StsInputs {
  readonly datasets: ReadonlyArray<StsDataset>
  /** what was read, and what was skipped and why */
  readonly notes: ReadonlyArray<string>
  /** the run the edition takes (`Run.shapeOf`; SemRel's datasets have their `pairIds`) */
  readonly shape: Exclude<Run.Shape, "sick">
}

/**
 * The STS (STS-B, SemRel) test input of every dataset with a public input file; others are skipped
 * with a note, and none found fails. Looked for also by base name (a flat folder); for SemRel the
 * labelled gold csv stands in for a missing unlabelled one. A file given is the input of the
 * dataset it names (`eng_test.csv` -> eng), else of every dataset.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { Baseline, Inputs } from "@stseval/baselines"
 * import { Effect } from "effect"
 *
 * const inputs = await Effect.runPromise(Inputs.stsInputs(Registry.get("sts2014")!, {}).pipe(Effect.provide(NodeServices.layer)))
 * const made = Baseline.sts("tokencos-2014", inputs.datasets)
 * ```
 * @since 0.2.0
 */
export const stsInputs = Effect.fnUntraced(function* (edition: Registry.TaskEdition, where: Where) {
  const dirs = inputDirs(edition, where)
  const given = where.input !== undefined && (yield* isFile(where.input)) ? where.input : undefined
  const declared = Run.shapeOf(edition)
  const shape = declared === "sick" ? "sts" : declared // a SICK edition has no STS input to read
  const semrel = shape === "semrel"
  const datasets: Array<StsDataset> = []
  const notes: Array<string> = []
  for (const spec of edition.datasets) {
    const names = [spec.input, semrel ? spec.gold : undefined].filter((f): f is string => f !== undefined)
    if (names.length === 0) {
      notes.push(`${spec.name}: no public input, skipped`)
      continue
    }
    let file: Option.Option<string>
    if (given !== undefined) {
      if (semrel && SemRel.parseFileName(nodePath.basename(given))?.language !== spec.name) continue
      file = Option.some(given)
    } else {
      file = yield* firstExisting(dirs.flatMap((d) => names.flatMap((n) => [nodePath.join(d, n), nodePath.join(d, nodePath.basename(n))])))
    }
    if (Option.isNone(file)) {
      notes.push(`${spec.name}: ${names.join(" or ")} not found in ${dirs.join(" or ")}, skipped`)
      continue
    }
    const text = yield* readText(file.value)
    if (semrel) {
      const pairs = (yield* parsedOrFail(SemRel.parseData(text))).pairs
      datasets.push({ dataset: spec.name, pairs, pairIds: pairs.map((p) => p.pairId), file: file.value, lines: pairs.map((p) => p.line) })
    } else {
      const pairs = shape === "stsb" ? (yield* parsedOrFail(StsBenchmark.parse(text))).rows : (yield* parsedOrFail(Sts.parseInput(text))).pairs
      datasets.push({ dataset: spec.name, pairs, languages: languagesOf(spec), file: file.value, lines: pairs.map((p) => p.line) })
    }
  }
  // an edition file may give several datasets the STS Benchmark's format, whose run (one file of
  // scores, Run.toRun) holds one: refused here, as Baseline.sts would throw
  if (shape === "stsb" && datasets.length > 1) {
    return yield* new InputError({
      message: `${edition.id}: an STS Benchmark run is one file of scores, for one dataset; ${datasets.length} datasets of this edition (${datasets.map((d) => d.dataset).join(", ")}) read STS Benchmark input`
    })
  }
  if (datasets.length === 0) {
    return yield* new InputError({
      message: `${edition.id}: no input file found (${notes.join("; ") || `${given ?? ""} is not an input of ${edition.id}`}); give the input folder with --input <dir>`
    })
  }
  return { datasets, notes, shape } satisfies StsInputs
})
