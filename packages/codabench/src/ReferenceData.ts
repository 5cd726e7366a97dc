/**
 * The reference data of a stseval task on Codabench: the gold files and `stseval-task.json`, which
 * names the edition (the whole edition object, so a bundle keeps scoring the same way whatever
 * stseval version later reads it), where the gold is, the leaderboard the competition ranks and
 * what the detailed results may show of the gold.
 *
 * Codabench zips the folder as it is (`zip_if_directory` in
 * `src/apps/competitions/unpackers/utils.py`, c7dbc756: `shutil.make_archive` of the folder's
 * contents) and the compute worker extracts it as it is into `/app/input/ref` (`Run._get_bundle` in
 * `compute_worker/compute_worker.py`: `ZipFile.extractall`). stseval keeps the gold files flat at
 * the folder's root all the same (a gold the edition names in a sub-folder, SemRel's
 * `eng/eng_test_with_labels.csv`, is stored as `eng__eng_test_with_labels.csv` and laid out again
 * before scoring, `layOut`), so that the folder holds exactly the files listed in
 * `stseval-task.json` and nothing the organiser's folder nested beside them.
 *
 * @since 0.1.0
 */
import { Files, Registry } from "@stseval/formats"
import { Effect, FileSystem, Path, Schema } from "effect"
import type { Plot } from "./DetailedResults.js"
import * as Sealed from "./Sealed.js"

/**
 * The task file's name inside the reference data.
 *
 * @since 0.1.0
 */
export const TASK_FILE = "stseval-task.json"

/**
 * Version tag of the task file.
 *
 * @since 0.1.0
 */
export const FORMAT = "stseval/codabench-task@1"

/**
 * `stseval-task.json`: the edition (a full edition object, validated as a user edition file is) and
 * the gold, relative to the reference data folder (`.` when the gold is the folder itself).
 *
 * @example
 * ```ts
 * import { ReferenceData } from "@stseval/codabench"
 * import { Schema } from "effect"
 *
 * declare const text: string // stseval-task.json
 * const task: ReferenceData.TaskFile = Schema.decodeUnknownSync(ReferenceData.TaskFile)(JSON.parse(text))
 * ```
 * @since 0.1.0
 */
export const TaskFile = Schema.Struct({
  format: Schema.Literal(FORMAT),
  edition: Schema.Unknown.annotate({ description: "the task edition, as in a user edition file (docs/task-registry.md)" }),
  gold: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "the gold file or folder, relative to the reference data folder" }),
  plot: Schema.optionalKey(
    Schema.Literals(["points", "run", "none", "bins"]).annotate({
      description:
        "what detailed_results.html may show of the gold: points (public gold: the run against the gold), run (secret gold: the run alone; the default), none; bins (bundles before 0.3) is read as run"
    })
  ),
  leaderboard: Schema.optionalKey(
    Schema.String.check(Schema.isMinLength(1)).annotate({
      description: "the leaderboard the competition ranks (Scores.boards: official, a subtask, a dataset, mean); its primary figure must be computed or the submission fails (default: official)"
    })
  ),
  files: Schema.optionalKey(
    Schema.Record(Schema.String, Schema.String).annotate({
      description:
        "gold files kept flat in the reference data: flat name -> the path inside the gold folder the edition names (e.g. amh__amh_test_with_labels.csv -> amh/amh_test_with_labels.csv)"
    })
  ),
  sealed: Schema.optionalKey(
    Sealed.SealedGold.annotate({
      description: "a sealed test phase: the gold's shape instead of the gold (no gold file in the reference data); submissions are validated, not scored (Sealed)"
    })
  ),
  elsewhere: Schema.optionalKey(
    Schema.Record(Schema.String, Schema.String).annotate({
      description:
        "a competition of one dataset of an edition ranked per dataset: the other datasets' run files -> their competitions (pred_amh.csv -> amh), so that such a file is said to belong to another competition"
    })
  ),
  goldHashes: Schema.optionalKey(
    Sealed.GoldHashes.annotate({
      description: "the SHA-256 of each dataset's gold file the competition was sealed with: the scoring program refuses a gold that differs"
    })
  )
})
/** @since 0.1.0 */
export type TaskFile = typeof TaskFile.Type

/**
 * The reference data cannot be used: the organiser's bundle is wrong, not the submission.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ReferenceData } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const reference = ReferenceData.read("/app/input/ref").pipe(
 *   Effect.catchTag("ReferenceError", (e: ReferenceData.ReferenceError) => Effect.fail(`the reference data cannot be used: ${e.reason}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class ReferenceError extends Schema.TaggedError<ReferenceError>()("ReferenceError", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

/**
 * A loaded task: the edition, the absolute path of its gold, the plot setting and the leaderboard.
 *
 * @since 0.1.0
 */
export interface Reference {
  readonly edition: Registry.TaskEdition
  readonly goldPath: string
  readonly plot: Plot
  /** the board's name (`Scores.board`); absent in bundles before 0.3, which rank `official` */
  readonly leaderboard: string | undefined
  /**
   * when the edition names gold files in sub-folders (SemEval-2024 Task 1: `<lang>/<lang>_test_with_labels.csv`):
   * flat file in `goldPath` -> where the edition expects it; the gold folder is laid out so before scoring
   * (`layOut`), so the edition, and the signature, stay the built-in ones
   */
  readonly files: Readonly<Record<string, string>> | undefined
  /** a sealed test phase's gold shape (no gold in the reference data) @since 0.3.0 */
  readonly sealed: Sealed.SealedGold | undefined
  /** the gold hashes the competition was sealed with @since 0.3.0 */
  readonly goldHashes: Sealed.GoldHashes | undefined
  /** the run files of the other competitions of the edition, by file name (`pred_amh.csv` -> `amh`) @since 0.3.0 */
  readonly elsewhere: Readonly<Record<string, string>> | undefined
}

const unsafe = (p: string) => p === "" || /^[\\/]/.test(p) || /^[a-zA-Z]:/.test(p) || p.split(/[\\/]/).includes("..")

/**
 * The gold folder as the edition names it: each flat file of the reference data copied to its place
 * under `into`. Returns the gold folder to score against (`reference.goldPath` when nothing is nested).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ReferenceData } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const reference = await Effect.runPromise(ReferenceData.read("/app/input/ref").pipe(Effect.provide(NodeServices.layer)))
 * // the gold written out as the engine reads it: the path to give Engine.score
 * const gold = await Effect.runPromise(ReferenceData.layOut(reference, "/tmp/gold").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const layOut = (reference: Reference, into: string): Effect.Effect<string, ReferenceError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    if (reference.files === undefined) return reference.goldPath
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    for (const [flat, nested] of Object.entries(reference.files)) {
      if (unsafe(flat) || unsafe(nested) || /[\\/]/.test(flat)) return yield* new ReferenceError({ reason: `${TASK_FILE}: the gold file "${nested}" must lie inside the reference data` })
      const to = path.join(into, nested)
      yield* fs.makeDirectory(path.dirname(to), { recursive: true }).pipe(Effect.mapError((e) => new ReferenceError({ reason: e.message })))
      yield* fs
        .copyFile(path.join(reference.goldPath, flat), to)
        .pipe(Effect.mapError(() => new ReferenceError({ reason: `the reference data has no ${flat} (the gold ${nested})` })))
    }
    return into
  })

/**
 * Read `stseval-task.json` from a reference data folder (`/app/input/ref`).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ReferenceData } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const reference = await Effect.runPromise(ReferenceData.read("/app/input/ref").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const read = (refDir: string): Effect.Effect<Reference, ReferenceError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    // an edition file: formats' reader (a regular file only, capped), as every edition file is read
    const text = yield* Files.readText(path.join(refDir, TASK_FILE), { what: TASK_FILE, maxBytes: 16 * 1024 * 1024 }).pipe(
      Effect.mapError((e) =>
        new ReferenceError({
          reason: e.reason === "missing" ? `the reference data has no ${TASK_FILE}; make the bundle with \`stseval codabench bundle\`` : `${TASK_FILE}: ${Files.detail(e)}`
        })
      )
    )
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (e) {
      return yield* new ReferenceError({ reason: `${TASK_FILE} is not valid JSON: ${(e as Error).message}` })
    }
    const file = yield* Schema.decodeUnknownEffect(TaskFile)(json).pipe(
      Effect.mapError((e) => new ReferenceError({ reason: `${TASK_FILE} is not a stseval task file: ${e.message}` }))
    )
    const edition = yield* Registry.decodeEdition(file.edition, TASK_FILE).pipe(Effect.mapError((e) => new ReferenceError({ reason: e.message })))
    if (path.isAbsolute(file.gold) || file.gold.split(/[\\/]/).includes("..")) {
      return yield* new ReferenceError({ reason: `${TASK_FILE}: the gold must lie inside the reference data, not at "${file.gold}"` })
    }
    // A bundle before 0.3 says `bins` for its test phase: its gold is secret.
    const plot: Plot = file.plot === undefined || file.plot === "bins" ? "run" : file.plot
    return { edition, goldPath: path.join(refDir, file.gold), plot, leaderboard: file.leaderboard, files: file.files, sealed: file.sealed, goldHashes: file.goldHashes, elsewhere: file.elsewhere }
  })

/**
 * Write a reference data folder: the gold (a file is copied under its own name; for a folder, each
 * dataset's gold file the edition names, and nothing else) and `stseval-task.json`. Fails when a
 * gold file the edition needs is not in the gold folder.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Registry } from "@stseval/formats"
 * import { ReferenceData } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * // the test phase's reference data: the edition, its gold, and no gold value in the detailed results ("run")
 * await Effect.runPromise(ReferenceData.write("bundle/reference_data_test", Registry.get("sick2014")!, "SICK_test_annotated.txt", "run").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const write = (
  refDir: string,
  edition: Registry.TaskEdition,
  gold: string,
  plot: Plot = "run",
  leaderboard?: string,
  /**
   * `sealed`: write the gold's shape and no gold file (a sealed test phase); `goldHashes`: the
   * hashes the gold must have (a sealed or an unsealed test phase) @since 0.3.0
   */
  seal: {
    readonly sealed?: Sealed.SealedGold | undefined
    readonly goldHashes?: Sealed.GoldHashes | undefined
    /** the other competitions' run files (`Reference.elsewhere`) */
    readonly elsewhere?: Readonly<Record<string, string>> | undefined
  } = {}
): Effect.Effect<void, ReferenceError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const fail = (reason: string) => new ReferenceError({ reason })
    const info = yield* fs.stat(gold).pipe(Effect.mapError(() => fail(`the gold ${gold} does not exist`)))
    yield* fs.makeDirectory(refDir, { recursive: true }).pipe(Effect.mapError((e) => fail(e.message)))
    let goldEntry: string
    const files: Record<string, string> = {}
    if (seal.sealed !== undefined) goldEntry = "."
    else if (info.type === "Directory") {
      for (const d of edition.datasets) {
        // Kept flat: a gold file the edition names in a sub-folder gets a flat name, and
        // stseval-task.json says where it goes.
        const nested = /[\\/]/.test(d.gold)
        const flat = nested ? d.gold.split(/[\\/]+/).join("__") : d.gold
        const from = path.join(gold, d.gold)
        // A dataset whose gold was never released is listed as such by the scorer, not required here.
        if (d.goldNotPublic !== undefined && !(yield* fs.exists(from).pipe(Effect.orElseSucceed(() => false)))) continue
        if (flat === TASK_FILE) return yield* fail(`the gold file cannot be called ${TASK_FILE}`)
        yield* fs
          .copyFile(from, path.join(refDir, flat))
          .pipe(Effect.mapError(() => fail(`the gold folder ${gold} has no ${d.gold} (gold of ${d.name} in ${edition.id})`)))
        if (nested) files[flat] = d.gold
      }
      goldEntry = "."
    } else {
      goldEntry = path.basename(gold)
      if (goldEntry === TASK_FILE) return yield* fail(`the gold file cannot be called ${TASK_FILE}`)
      yield* fs.copyFile(gold, path.join(refDir, goldEntry)).pipe(Effect.mapError((e) => fail(e.message)))
    }
    const file: TaskFile = {
      format: FORMAT,
      edition: Schema.encodeSync(Registry.TaskEdition)(edition),
      gold: goldEntry,
      plot,
      ...(leaderboard !== undefined ? { leaderboard } : {}),
      ...(Object.keys(files).length > 0 ? { files } : {}),
      ...(seal.sealed !== undefined ? { sealed: seal.sealed } : {}),
      ...(seal.goldHashes !== undefined ? { goldHashes: seal.goldHashes } : {}),
      ...(seal.elsewhere !== undefined && Object.keys(seal.elsewhere).length > 0 ? { elsewhere: seal.elsewhere } : {})
    }
    yield* fs.writeFileString(path.join(refDir, TASK_FILE), `${JSON.stringify(file, null, 2)}\n`).pipe(Effect.mapError((e) => fail(e.message)))
  })
