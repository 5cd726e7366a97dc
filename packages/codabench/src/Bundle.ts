/**
 * A Codabench competition bundle for a stseval task edition: what an organiser uploads (as a zip)
 * to get a running competition.
 *
 * ```
 * competition.yaml            version 2: a development phase (with --dev-gold), a test phase and,
 *                             sealed, a Scoring phase the test submissions migrate to
 * logo.png  terms.md  pages/  the site (edit them before uploading)
 * scoring_program/            metadata.yaml (the command) + stseval.mjs (the whole CLI, one file)
 * reference_data_dev/         the dev gold + stseval-task.json
 * reference_data_test/        stseval-task.json with the gold's shape and hashes (sealed, the
 *                             default; see Sealed), or the test gold too (`liveTest`)
 * ```
 * and beside it, never in it, `<out>.gold/`: the test gold of a sealed bundle, for `Unseal`.
 *
 * The scoring program needs nothing but `node` in the competition's Docker image (`docker_image`,
 * an official Node image by default). Codabench gives every phase the first leaderboard
 * (`BaseUnpacker._save_competition` in `src/apps/competitions/unpackers/base_unpacker.py`,
 * c7dbc756), so both phases share one leaderboard: the board the organiser chose (`Scores.boards`),
 * and the development phase scores its gold with the test edition's datasets, so that its
 * `scores.json` has the same keys. Because a competition has one leaderboard, an edition ranked per
 * language (SemEval-2024 Task 1) gets one competition per language by default (`writeBundles` with
 * `each`): each scores only its language, so that no competition hands out test figures of another.
 *
 * @since 0.1.0
 */
import { Files, Gold, Issue, Registry } from "@stseval/formats"
import { Effect, FileSystem, Path, Schema } from "effect"
import * as CompetitionYaml from "./CompetitionYaml.js"
import * as Competition from "./internal/competition.js"
import * as DevGold from "./internal/devGold.js"
import * as Pages from "./internal/pages.js"
import * as Score from "./internal/score.js"
import { zipFolder } from "./internal/zipFolder.js"
import * as ReferenceData from "./ReferenceData.js"
import * as Scores from "./Scores.js"
import * as Sealed from "./Sealed.js"

/**
 * The default `docker_image`: an official Node.js LTS image; the scoring program needs only `node`.
 * Node 24 satisfies the CLI's `engines` (^22.19 || ^24 || >=26) and is above the single-file CLI's
 * esbuild target (node22, the lowest supported line).
 *
 * @since 0.1.0
 */
export const DEFAULT_DOCKER_IMAGE = "node:24-bookworm-slim"

/**
 * The single-file CLI's name inside the scoring program.
 *
 * @since 0.1.0
 */
export const PROGRAM_FILE = "stseval.mjs"

/**
 * The scoring program's command. The worker mounts the program at `/app/program`, the input at
 * `/app/input` and the output at `/app/output`, and splits the command on single spaces (no shell).
 *
 * @since 0.1.0
 */
export const COMMAND = `node /app/program/${PROGRAM_FILE} codabench score /app/input /app/output`

/**
 * What a Codabench bundle is made from: the task, its gold, the CLI to run and the phases.
 *
 * @since 0.1.0
 */
export interface Options {
  /** a built-in edition id, a user edition file, or an edition */
  readonly task: string | Registry.TaskEdition
  /** the test gold (file or folder) */
  readonly gold: string
  /**
   * the development gold (file or folder); without it the bundle has only the test phase (the test
   * gold is never scored in public). In a folder, each dataset's dev gold is the edition's gold name
   * with `test` replaced by `dev` when there is such a file (`eng/eng_dev_with_labels.csv`, as the
   * SemRel organisers name it), else the gold name itself. A dev gold that is the test gold, or shares
   * pairs with it, is refused.
   */
  readonly devGold?: string | undefined
  /**
   * the leaderboard (`Scores.boards`): `official`, SICK's `entailment`, a dataset of an edition
   * ranked per dataset (`eng`), its aggregate (`mean`); `each` for `writeBundles` (one competition per
   * board the task ranked). Default: the edition's (`each` for an edition ranked per dataset).
   */
  readonly leaderboard?: string | undefined
  /** the bundle folder to write (must be empty or absent) */
  readonly out: string
  /** also write a zip of the bundle: `true` for `<out>.zip`, or the zip's path */
  readonly zip?: boolean | string | undefined
  /** the single-file bundled CLI (`stseval.mjs`) to copy into the scoring program */
  readonly cliBundle: string
  /** competition title (default: the edition's title) */
  readonly title?: string | undefined
  readonly dockerImage?: string | undefined
  /** phase dates (UTC); defaults count from `now`: development 60 days, then test 14 days */
  readonly devStart?: Date | undefined
  readonly testStart?: Date | undefined
  readonly testEnd?: Date | undefined
  readonly now?: Date | undefined
  /** seconds a scoring run may take (Codabench's default is 600) */
  readonly executionTimeLimit?: number | undefined
  /**
   * a live test leaderboard: the test phase's reference data holds the gold, which every
   * participant can then download (see `Sealed`), and submissions are scored on upload. Default:
   * sealed (the gold is written beside the bundle, `Sealed.goldBeside`, and a Scoring phase scores
   * the test phase's submissions once `stseval codabench unseal`'s reference data is in place)
   *
   * @since 0.3.0
   */
  readonly liveTest?: boolean | undefined
  /** start of the Scoring phase of a sealed bundle (UTC; default: two days after the test phase ends) @since 0.3.0 */
  readonly scoringStart?: Date | undefined
  /**
   * The check page of an edition with a public gold (the CLI's `stseval page check`, which this
   * package cannot build: it is the CLI's code compiled for the browser). Given, each phase whose
   * gold participants have (the development phase; the test phase of a live bundle) gets it as
   * its starting kit, `starting_kit_<phase>/check.html`, and the Submitting page says how to use it.
   *
   * @since 0.3.0
   */
  readonly checkPage?: ((edition: Registry.TaskEdition, gold: string) => Effect.Effect<string, { readonly message: string }>) | undefined
}

/**
 * The bundle written: its folder or zip, and what it holds.
 *
 * @since 0.1.0
 */
export interface Written {
  readonly out: string
  readonly zip: string | undefined
  readonly competition: CompetitionYaml.Competition
  /** the leaderboard: its name, columns (= `columns`) and primary column */
  readonly board: Scores.Board
  readonly columns: ReadonlyArray<Scores.Column>
  /** notes for the organiser (e.g. no development phase) */
  readonly notes: ReadonlyArray<string>
  /** a sealed bundle: the folder beside it that holds the test gold (`Sealed.goldBeside`); undefined for a live test phase @since 0.3.0 */
  readonly gold: string | undefined
}

/**
 * The bundle cannot be written; the reason says what to change.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Bundle } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const written = Bundle.writeBundle({ task: "sts2017", gold: "data/sts2017/gold", out: "bundle", cliBundle: "stseval.mjs" }).pipe(
 *   Effect.catchTag("BundleError", (e: Bundle.BundleError) => Effect.fail(e.reason)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class BundleError extends Schema.TaggedError<BundleError>()("BundleError", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

// A valid 1 x 1 PNG: Codabench requires an image and makes an icon of it with PIL, so it must
// decode; the organiser replaces it with the task's logo.
const LOGO = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

/**
 * The edition a competition for `board` scores: for a board of one dataset of an edition ranked per
 * dataset, that dataset alone (the competition must not score, and so hand out figures of, the
 * others: each has its own competition and its own limit); else the edition.
 */
const competitionEdition = (edition: Registry.TaskEdition, board: string): Registry.TaskEdition => {
  if (!Registry.isRankedPerDataset(edition.ranking[0])) return edition
  const dataset = edition.datasets.find((d) => d.name === board)
  return dataset === undefined ? edition : { ...edition, datasets: [dataset] }
}

/**
 * Write a competition bundle (and optionally its zip), and check it against Codabench's rules
 * (`CompetitionYaml.checkBundle`).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Bundle } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * await Effect.runPromise(
 *   Bundle.writeBundle({ task: "sts2017", gold: "data/sts2017/gold", out: "bundle", zip: true, cliBundle: "stseval.mjs" }).pipe(Effect.provide(NodeServices.layer))
 * )
 * ```
 * @since 0.1.0
 */
export const writeBundle = (options: Options): Effect.Effect<Written, BundleError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const fail = (reason: string) => new BundleError({ reason })
    const resolved =
      typeof options.task === "string" ? yield* Registry.resolve(options.task).pipe(Effect.mapError((e) => fail(`--task: ${e.message}`))) : options.task
    const notes: Array<string> = []
    const chosen = Scores.board(resolved, options.leaderboard)
    if ("problem" in chosen) {
      return yield* fail(
        `--leaderboard: ${chosen.problem}${(options.leaderboard ?? Scores.boards(resolved).default) === Scores.EACH ? " (or write one competition per board with writeBundles)" : ""}`
      )
    }
    const edition = competitionEdition(resolved, chosen.name)
    const board = Scores.board(edition, chosen.name)
    if ("problem" in board) return yield* fail(`--leaderboard: ${board.problem}`)

    // The gold must load without errors: a broken gold would fail every submission.
    const checkGold = (e: Registry.TaskEdition, gold: string, label: string) =>
      Effect.gen(function* () {
        if (!(yield* fs.exists(gold).pipe(Effect.orElseSucceed(() => false)))) return yield* fail(`${label}: ${gold} does not exist`)
        const checked = yield* Score.score(e, gold).pipe(Effect.mapError((reason) => fail(`${label}: ${reason}`)))
        if (Issue.hasErrors(checked.goldIssues)) {
          const errors = checked.goldIssues.filter((i) => i.severity === "error").slice(0, 5)
          return yield* fail(`${label}: the gold has errors: ${errors.map((i) => `${i.file}${i.line !== undefined ? `:${i.line}` : ""}: ${i.message}`).join("; ")}`)
        }
      })
    yield* checkGold(edition, options.gold, "--gold")
    const dev = options.devGold !== undefined ? yield* DevGold.devGoldEdition(edition, options.gold, options.devGold).pipe(Effect.mapError(fail)) : undefined
    if (dev !== undefined) yield* checkGold(dev, options.devGold!, "--dev-gold")
    else notes.push("no development gold was given: the bundle has only the test phase (a development phase scoring the test gold would reveal it)")

    if (!(yield* fs.exists(options.cliBundle).pipe(Effect.orElseSucceed(() => false)))) {
      return yield* fail(`the single-file CLI ${options.cliBundle} does not exist; build it first (see docs/codabench.md)`)
    }
    const out = path.resolve(options.out)
    const existing = yield* fs.readDirectory(out).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))
    if (existing.length > 0) return yield* fail(`${options.out} is not empty; give a new folder to --out`)
    const sealed = options.liveTest !== true
    const goldBeside = sealed ? Sealed.goldBeside(out) : undefined
    if (goldBeside !== undefined && (yield* fs.readDirectory(goldBeside).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))).length > 0) {
      return yield* fail(`${goldBeside} (where a sealed bundle keeps its test gold) is not empty; give another --out or move it`)
    }
    // Sealed: the test phase's reference data holds the gold's shape and hashes, the gold goes beside the bundle.
    const testGold = yield* Gold.loadGold(edition, options.gold)
    // one competition of several (one per language): the others' run files, to say where they go
    const names = new Set(edition.datasets.map((d) => d.name))
    const elsewhere = Object.fromEntries(resolved.datasets.filter((d) => !names.has(d.name) && d.run !== undefined).map((d) => [d.run, d.name]))
    const seal = sealed
      ? { sealed: Sealed.seal(edition, testGold), goldHashes: yield* Sealed.hashes(testGold).pipe(Effect.mapError((e) => fail(`--gold: ${e}`))), elsewhere }
      : { elsewhere }

    const io = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(Effect.mapError((e) => fail(e instanceof Error ? e.message : String(e))))
    const zipPath = options.zip !== undefined && options.zip !== false ? path.resolve(options.zip === true ? `${out}.zip` : options.zip) : undefined
    if (zipPath?.startsWith(`${out}${path.sep}`)) return yield* fail("the zip must be written outside the bundle folder")
    let zipWritten = false
    // the folder whole or not at all, also when a check below fails or the program is stopped
    // (Ctrl-C): written into a hidden folder beside it, renamed into place (formats' Files.writeFolder)
    const checked = yield* Files.writeFolder(out, (dir) =>
      Effect.gen(function* () {
        const writeText = (rel: string, text: string) =>
          io(
            Effect.gen(function* () {
              yield* fs.makeDirectory(path.dirname(path.join(dir, rel)), { recursive: true })
              yield* fs.writeFileString(path.join(dir, rel), text)
            })
          )

        // Scoring program: the command and the one-file CLI.
        yield* writeText("scoring_program/metadata.yaml", `command: ${COMMAND}\n`)
        yield* io(fs.copyFile(options.cliBundle, path.join(dir, "scoring_program", PROGRAM_FILE)))

        // Reference data.
        // The test gold is secret: the test phase's detailed results show no gold value ("run"); the
        // development phase's labels are the participants' own ("points").
        yield* ReferenceData.write(path.join(dir, "reference_data_test"), edition, options.gold, "run", board.name, seal).pipe(Effect.mapError((e) => fail(`--gold: ${e.reason}`)))
        if (dev !== undefined) {
          yield* ReferenceData.write(path.join(dir, "reference_data_dev"), dev, options.devGold!, "points", board.name, { elsewhere }).pipe(Effect.mapError((e) => fail(`--dev-gold: ${e.reason}`)))
        }

        // Site.
        const scope =
          edition !== resolved
            ? `This competition is one of ${Scores.boards(resolved).each.length}, one per ${edition.datasets[0].language !== undefined ? "language" : "dataset"} of ${resolved.id} (${Scores.boards(resolved).each.map((b) => b.name).join(", ")}), as the task ranked them: it scores ${edition.datasets[0].name} only.`
            : undefined
        // Starting kits: the check page with the phase's gold, where participants have that gold
        const kits: { dev?: string; test?: string } = {}
        if (options.checkPage !== undefined) {
          const page = (e: Registry.TaskEdition, gold: string) => options.checkPage!(e, gold).pipe(Effect.mapError((e) => fail(`the check page: ${e.message}`)))
          if (dev !== undefined) yield* writeText((kits.dev = "starting_kit_dev") + "/check.html", yield* page(dev, options.devGold!))
          if (!sealed) yield* writeText((kits.test = "starting_kit_test") + "/check.html", yield* page(edition, options.gold))
        }
        const pages = Pages.pageTexts(edition, board, dev !== undefined, scope, sealed ? "sealed" : "live", kits.dev !== undefined || kits.test !== undefined)
        yield* writeText("pages/overview.md", pages.overview)
        yield* writeText("pages/evaluation.md", pages.evaluation)
        yield* writeText("pages/submitting.md", pages.submitting)
        yield* writeText("terms.md", pages.terms)
        yield* io(fs.writeFile(path.join(dir, "logo.png"), Uint8Array.from(atob(LOGO), (c) => c.charCodeAt(0))))

        const competition = yield* Competition.competition(edition, board, options, { dev: dev !== undefined, sealed, kits, dockerImage: options.dockerImage ?? DEFAULT_DOCKER_IMAGE }).pipe(
          Effect.mapError(fail)
        )
        const checked = yield* CompetitionYaml.decode(Schema.encodeSync(CompetitionYaml.Competition)(competition)).pipe(
          Effect.mapError((e) => fail(`the competition.yaml stseval made breaks Codabench's rules: ${e.message}`))
        )
        yield* writeText("competition.yaml", CompetitionYaml.stringify(checked))
        const problems = yield* CompetitionYaml.checkBundle(dir)
        if (problems.length > 0) return yield* fail(`the bundle breaks Codabench's rules: ${problems.map((p) => `${p.file}: ${p.message}`).join("; ")}`)
        // the zip before the folder takes its name: stopped (SIGTERM) or failed while zipping, no
        // --out is left for the next run to refuse as not empty
        if (zipPath !== undefined) {
          yield* zipFolder(dir, zipPath).pipe(Effect.mapError((e) => fail(`${zipPath} cannot be written: ${Files.describe(e)}`)))
          zipWritten = true
        }
        return checked
      })
    ).pipe(
      Effect.mapError((e) => (e instanceof BundleError ? e : fail(`${options.out} cannot be written: ${Files.describe(e)}`))),
      // a zip written for a folder that then was not: removed with it
      Effect.onExit((exit) => (exit._tag === "Failure" && zipWritten && zipPath !== undefined ? fs.remove(zipPath, { force: true }).pipe(Effect.ignore) : Effect.void))
    )
    if (goldBeside !== undefined) {
      yield* Files.writeFolder(goldBeside, (dir) => Sealed.copyGold(edition, testGold, dir).pipe(Effect.mapError(fail))).pipe(
        Effect.mapError((e) => (e instanceof BundleError ? e : fail(`${goldBeside} cannot be written: ${Files.describe(e)}`)))
      )
      notes.push(
        `the test phase is sealed: its reference data holds no gold (only what checking a submission needs, and the gold's hashes); the test gold is in ${goldBeside}, which you keep and never upload. After the test phase ends, run \`stseval codabench unseal ${options.out}\` (see docs/codabench.md)`
      )
    } else {
      notes.push(
        "the test leaderboard is live (--live-test): the test phase's reference data holds the test gold, and Codabench lets every participant download a task's reference data, so the test gold is public"
      )
    }
    return { out, zip: zipPath, competition: checked, board, columns: board.columns, notes, gold: goldBeside }
  })

/**
 * Write one competition bundle per board of `options.leaderboard` (or of the edition's default):
 * with `each` (the default of an edition ranked per dataset, SemEval-2024 Task 1), one competition
 * per board the task ranked, as `<out>/<board>/` (and `<out>/<board>.zip` with `zip: true`), each
 * titled with its board; otherwise the one bundle of `writeBundle`.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Bundle } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * // SemEval-2024 Task 1 ranked each language on its own: semrel/amh/, semrel/arq/, ... one competition per language (and its zip)
 * const written: ReadonlyArray<Bundle.Written> = await Effect.runPromise(
 *   Bundle.writeBundles({ task: "semrel2024-a", gold: "data/semrel2024/track-a", out: "semrel", zip: true, cliBundle: "stseval.mjs" }).pipe(Effect.provide(NodeServices.layer))
 * )
 * written.map((w) => w.board.name) // ["amh", "arq", "ary", "eng", "hau", "kin", "mar", "tel"]
 * ```
 * @since 0.3.0
 */
export const writeBundles = (options: Options): Effect.Effect<ReadonlyArray<Written>, BundleError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fail = (reason: string) => new BundleError({ reason })
    const edition =
      typeof options.task === "string" ? yield* Registry.resolve(options.task).pipe(Effect.mapError((e) => fail(`--task: ${e.message}`))) : options.task
    const { each, default: fallback } = Scores.boards(edition)
    if ((options.leaderboard ?? fallback) !== Scores.EACH) return [yield* writeBundle({ ...options, task: edition })]
    if (typeof options.zip === "string") return yield* fail("--zip: one competition per board writes several zips (<out>/<board>.zip); give --zip without a path")
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const existing = yield* fs.readDirectory(options.out).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))
    if (existing.length > 0) return yield* fail(`${options.out} is not empty; give a new folder to --out`)
    const written: Array<Written> = []
    for (const b of each) {
      const out = path.join(options.out, b.name)
      written.push(
        yield* writeBundle({
          ...options,
          task: edition,
          leaderboard: b.name,
          out,
          zip: options.zip === true ? `${out}.zip` : undefined,
          title: options.title !== undefined ? `${options.title}: ${b.name}`.slice(0, 256) : undefined
        })
      )
    }
    return written
  })
