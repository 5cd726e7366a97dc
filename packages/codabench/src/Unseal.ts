/**
 * `stseval codabench unseal`: after a sealed test phase has closed, the reference data that scores
 * its submissions — the test gold (from beside the bundle, `Sealed.goldBeside`, or as given), its
 * hashes checked against those the bundle was sealed with, and `stseval-task.json` keeping them so
 * that the scoring program checks them again — as a folder and the zip the organiser uploads.
 *
 * Codabench then scores the submissions by one of two routes (codalab/codabench c7dbc756):
 *
 * - **the Scoring phase** (the default of a sealed bundle): a phase with
 *   `auto_migrate_to_this_phase` on the test task. When it starts, `do_phase_migrations`
 *   (`src/apps/competitions/tasks.py`, run every 300 s by `CELERY_BEAT_SCHEDULE` in
 *   `src/settings/base.py`) calls `Competition.apply_phase_migration`
 *   (`src/apps/competitions/models.py`), which copies every finished test submission that is on the
 *   leaderboard (`status=FINISHED`, `leaderboard__isnull=False`, no parent) into the Scoring phase
 *   and runs it: on the task's reference data of that moment. No limit on their number; the
 *   reference data must be in place before the phase starts.
 * - **re-running** a phase (`PhaseViewSet.rerun_submissions` in `src/apps/api/views/competitions.py`):
 *   every submission of the phase without a parent is run again by `Submission.re_run`
 *   (`src/apps/competitions/models.py`), which keeps the submission's task, so the task's new
 *   reference data is read. An organiser may re-run at most `RERUN_SUBMISSION_LIMIT` (30,
 *   `src/settings/base.py`) submissions on Codabench's public queue (more on their own queue, or
 *   through Codabench's administrators); each re-run is a new submission, made after the deadline.
 *
 * @since 0.3.0
 */
import { Files, Gold } from "@stseval/formats"
import { Effect, FileSystem, Path, Schema } from "effect"
import * as CompetitionYaml from "./CompetitionYaml.js"
import { zipFolder } from "./internal/zipFolder.js"
import * as ReferenceData from "./ReferenceData.js"
import * as Sealed from "./Sealed.js"

/**
 * Codabench's limit on the submissions an organiser may re-run on its public queue
 * (`RERUN_SUBMISSION_LIMIT` in `src/settings/base.py`, c7dbc756; checked in
 * `PhaseViewSet.rerun_submissions`, `src/apps/api/views/competitions.py`).
 *
 * @since 0.3.0
 */
export const RERUN_SUBMISSION_LIMIT = 30

/**
 * The bundle to unseal and where its test gold goes.
 *
 * @since 0.3.0
 */
export interface Options {
  /** the sealed bundle folder (`stseval codabench bundle --out`) */
  readonly bundle: string
  /** the test gold (file or folder); default: beside the bundle (`Sealed.goldBeside`) */
  readonly gold?: string | undefined
  /** the reference data folder to write (new or empty); `<out>.zip` is written beside it */
  readonly out: string
  /** unseal before the test phase's end (a test, or a phase whose end was changed on Codabench) */
  readonly early?: boolean | undefined
  readonly now?: Date | undefined
}

/**
 * The unsealed test gold, ready to upload, and the steps that follow.
 *
 * @since 0.3.0
 */
export interface Unsealed {
  readonly out: string
  readonly zip: string
  /** the task whose reference data to replace, as competition.yaml names it */
  readonly task: string
  /** the phase the gold was sealed for and its end (`YYYY-MM-DD HH:MM:SS`, UTC) */
  readonly testPhase: { readonly name: string; readonly end: string | undefined }
  /** the phase that scores the test submissions when it starts (`auto_migrate_to_this_phase`), if the bundle has one */
  readonly scoringPhase: { readonly name: string; readonly start: string } | undefined
}

/**
 * The test phase cannot be unsealed; the reason says why.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Unseal } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const unsealed = Unseal.unseal({ bundle: "b", out: "gold" }).pipe(
 *   Effect.catchTag("UnsealError", (e: Unseal.UnsealError) => Effect.fail(e.reason)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.3.0
 */
export class UnsealError extends Schema.TaggedError<UnsealError>()("UnsealError", { reason: Schema.String }) {
  override get message() {
    return this.reason
  }
}

interface YamlPhase {
  readonly name?: unknown
  readonly start?: unknown
  readonly end?: unknown
  readonly tasks?: unknown
  readonly auto_migrate_to_this_phase?: unknown
}
interface YamlTask {
  readonly index?: unknown
  readonly name?: unknown
  readonly reference_data?: unknown
}

/**
 * Write the unsealed reference data of a sealed bundle's test phase (see the module's doc).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Unseal } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const unsealed = await Effect.runPromise(
 *   Unseal.unseal({ bundle: "sts2017-codabench", out: "sts2017-test-gold" }).pipe(Effect.provide(NodeServices.layer))
 * )
 * ```
 * @since 0.3.0
 */
export const unseal = (options: Options): Effect.Effect<Unsealed, UnsealError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const fail = (reason: string) => new UnsealError({ reason })
    const bundle = path.resolve(options.bundle)
    const text = yield* Files.readText(path.join(bundle, "competition.yaml"), { what: "competition.yaml", maxBytes: 16 * 1024 * 1024 }).pipe(
      Effect.mapError((e) => fail(`${options.bundle} is not a bundle folder: ${Files.detail(e)}`))
    )
    const loaded = CompetitionYaml.parseAsCodabench(text)
    if ("error" in loaded) return yield* fail(`${options.bundle}/competition.yaml cannot be read: ${loaded.error}`)
    const yaml = loaded.value as { readonly phases?: ReadonlyArray<YamlPhase>; readonly tasks?: ReadonlyArray<YamlTask> } | null
    const tasks = yaml?.tasks ?? []
    // The sealed task: the one whose reference data holds a sealed stseval-task.json.
    let task: YamlTask | undefined
    let reference: ReferenceData.Reference | undefined
    for (const t of tasks) {
      if (typeof t.reference_data !== "string") continue
      const read = yield* ReferenceData.read(path.join(bundle, t.reference_data)).pipe(Effect.option)
      if (read._tag === "Some" && read.value.sealed !== undefined) {
        task = t
        reference = read.value
        break
      }
    }
    if (task === undefined || reference === undefined || reference.goldHashes === undefined) {
      return yield* fail(`${options.bundle} has no sealed test phase (its test gold is in its reference data already: made with --live-test, or before stseval 0.3)`)
    }
    const phases = yaml?.phases ?? []
    const uses = (p: YamlPhase) => Array.isArray(p.tasks) && p.tasks.includes(task.index)
    const testPhase = phases.find((p) => uses(p) && p.auto_migrate_to_this_phase !== true)
    const scoring = phases.find((p) => uses(p) && p.auto_migrate_to_this_phase === true)
    const dateOf = (v: unknown) => {
      const d = CompetitionYaml.codabenchDate(v)
      return d !== undefined && "instant" in d ? d : undefined
    }
    const end = dateOf(testPhase?.end)
    const now = options.now ?? new Date()
    if (options.early !== true && (end === undefined || now.getTime() <= end.instant.getTime())) {
      return yield* fail(
        end === undefined
          ? "the test phase has no end in competition.yaml: give --early to unseal all the same"
          : `the test phase ends at ${CompetitionYaml.formatDateTime(end.instant)} UTC: the unsealed reference data can be downloaded by every participant, so it goes on Codabench only after that (--early to write it all the same, if the phase was closed early)`
      )
    }

    const goldPath = options.gold ?? Sealed.goldBeside(bundle)
    if (!(yield* fs.exists(goldPath).pipe(Effect.orElseSucceed(() => false)))) {
      return yield* fail(`the test gold ${goldPath} does not exist${options.gold === undefined ? " (a sealed bundle keeps it beside itself); give it with --gold" : ""}`)
    }
    const gold = yield* Gold.loadGold(reference.edition, goldPath)
    const errors = gold.issues.filter((i) => i.severity === "error")
    if (errors.length > 0) return yield* fail(`the test gold has errors: ${errors.slice(0, 3).map((i) => `${i.file}: ${i.message}`).join("; ")}`)
    const found = yield* Sealed.hashes(gold).pipe(Effect.mapError(fail))
    const differ = Sealed.differences(reference.goldHashes, found)
    if (differ.length > 0) return yield* fail(`${goldPath} is not the gold ${options.bundle} was sealed with: ${differ.join("; ")}`)

    const out = path.resolve(options.out)
    const existing = yield* fs.readDirectory(out).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))
    if (existing.length > 0) return yield* fail(`${options.out} is not empty; give a new folder to --out`)
    const edition = reference.edition
    const plot = reference.plot
    const leaderboard = reference.leaderboard
    const goldHashes = reference.goldHashes
    const elsewhere = reference.elsewhere
    yield* Files.writeFolder(out, (dir) => ReferenceData.write(dir, edition, goldPath, plot, leaderboard, { goldHashes, elsewhere })).pipe(
      Effect.mapError((e) => fail(e instanceof ReferenceData.ReferenceError ? e.reason : `${options.out} cannot be written: ${Files.describe(e)}`))
    )
    const zip = `${out}.zip`
    yield* zipFolder(out, zip).pipe(Effect.mapError((e) => fail(`${zip} cannot be written: ${Files.describe(e)}`)))
    const scoringStart = dateOf(scoring?.start)
    return {
      out,
      zip,
      task: typeof task.name === "string" ? task.name : `task ${String(task.index)}`,
      testPhase: { name: typeof testPhase?.name === "string" ? testPhase.name : "Test", end: end !== undefined ? CompetitionYaml.formatDateTime(end.instant) : undefined },
      scoringPhase:
        scoring !== undefined && scoringStart !== undefined
          ? { name: typeof scoring.name === "string" ? scoring.name : "Scoring", start: CompetitionYaml.formatDateTime(scoringStart.instant) }
          : undefined
    }
  })

/**
 * What the organiser does next on Codabench, in steps (the CLI prints them).
 *
 * @example
 * ```ts
 * import { Unseal } from "@stseval/codabench"
 *
 * declare const unsealed: Unseal.Unsealed
 * for (const line of Unseal.steps(unsealed)) console.log(line)
 * ```
 * @since 0.3.0
 */
export const steps = (u: Unsealed): ReadonlyArray<string> => [
  `1. On Codabench, Resources > Datasets and programs > Upload: ${u.zip}, type "Reference Data".`,
  `2. Resources > Tasks > "${u.task}" > Edit: set its reference data to the dataset just uploaded${u.scoringPhase !== undefined ? `, before the ${u.scoringPhase.name} phase starts (${u.scoringPhase.start} UTC)` : ""}.`,
  ...(u.scoringPhase !== undefined
    ? [
        `3. When the ${u.scoringPhase.name} phase starts, Codabench moves every finished ${u.testPhase.name} submission to it (within 5 minutes) and scores it against this gold; its leaderboard is the test leaderboard. No limit on the number of submissions.`,
        `   If the ${u.scoringPhase.name} phase started before the reference data was in place, its submissions were checked, not scored: re-run them (the phase's "Rerun submissions"; at most ${RERUN_SUBMISSION_LIMIT} submissions on Codabench's public queue).`
      ]
    : [
        `3. Re-run the ${u.testPhase.name} phase's submissions (the phase's "Rerun submissions"): each is run again on the task's new reference data, as a new submission. An organiser may re-run at most ${RERUN_SUBMISSION_LIMIT} submissions on Codabench's public queue.`
      ]),
  `4. For the paper's tables: download the ${u.testPhase.name} phase's submissions, \`stseval codabench import\` them with --phase ${u.testPhase.name}, and \`stseval rank\` them with the test gold: the same figures as the leaderboard.`
]
