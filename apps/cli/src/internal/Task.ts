/**
 * The CLI's way into the scoring package: `--task`, `--gold` and `--data-root` handed to
 * `Engine.score` / `Engine.goldPath`, and the engine's errors turned into usage errors (one line
 * on stderr, exit 2) that say what to do.
 */
import { cpuBound } from "@stseval/app/signals"
import { Effect, Option } from "effect"
import { DataStore, Registry } from "@stseval/formats"
import { Engine, Isolation, Uncertainty } from "@stseval/scoring"
import { Environment } from "./Environment.js"
import { UsageError } from "./Exit.js"
import * as Flags from "./Flags.js"

export const edition = (idOrPath: string) =>
  Registry.resolve(idOrPath).pipe(Effect.mapError((e) => new UsageError({ message: `--task: ${e.message}` })))

/** `--data-root`, else the data store's default root in the CLI's environment. */
export const root = (flag: Option.Option<string>) =>
  Effect.map(Environment, (env) => Option.getOrElse(flag, () => DataStore.defaultRoot(env)))

/** What stops the engine, as a usage error. */
const usage = (e: { readonly message: string }) => new UsageError({ message: e.message })

/**
 * `--gold` as given, else `<data root>/<edition.data.dir>` when the data store has it; otherwise a
 * usage error naming both ways out (`Engine.goldPath`).
 */
export const goldPath = (task: Registry.TaskEdition, flag: Option.Option<string>, dataRoot: Option.Option<string>) =>
  Effect.flatMap(root(dataRoot), (r) => Engine.goldPath({ edition: task, gold: Option.getOrUndefined(flag), dataRoot: r })).pipe(Effect.mapError(usage))

/** A submissions folder that exists, else a usage error naming it (`Engine.submissionsFolder`). */
export const folder = (path: string) => Engine.submissionsFolder(path).pipe(Effect.mapError(usage))

/**
 * `Engine.score` with the common flags (and `--time-budget`, `--memory-budget` where the command
 * has them); every error that stops it is a usage error. A team's runs beyond the edition's run
 * limit are flagged `over-limit` and not ranked, with `--all-runs` too (as in the watcher).
 */
export const score = (
  task: Registry.TaskEdition,
  flags: {
    readonly gold: Option.Option<string>
    readonly dataRoot: Option.Option<string>
    readonly timeBudget?: Option.Option<number>
    readonly memoryBudget?: Option.Option<number>
  },
  options: Omit<Engine.ScoreOptions, "task" | "gold" | "dataRoot"> & Partial<Pick<Engine.ScoreOptions, "primaryOnly">>
) =>
  Effect.flatMap(root(flags.dataRoot), (dataRoot) =>
    Engine.score({
      runLimit: task.runLimit,
      ...options,
      task,
      gold: Option.getOrUndefined(flags.gold),
      dataRoot,
      isolation: Flags.isolationOf({ timeBudget: flags.timeBudget ?? Option.none(), memoryBudget: flags.memoryBudget ?? Option.none() })
    })
  ).pipe(Effect.mapError(usage))

/**
 * What `validate` and `score` say when the runs and folders they were given hold no run at all
 * (an empty submissions folder): nothing was checked, so nothing is valid. Undefined when some run
 * was found.
 */
export const nothingToScore = (results: Engine.Results, paths: ReadonlyArray<string>): string | undefined =>
  results.runs.length > 0
    ? undefined
    : `nothing to score: ${paths.map((p) => JSON.stringify(p)).join(", ")} ${paths.length === 1 ? "holds" : "hold"} no run of ${results.edition.id} (a run is ${
        results.edition.submission === "folder" ? "a folder of per-dataset files, or a zip of one" : "a file, or a zip of one"
      }, named Team_runN)`

/**
 * The scorers' memory given back before a command's long computation on what it scored
 * (resampling, all-pairs tests): `Isolation.release`. Not after every scoring: a program that runs
 * commands one after another (the tests, in-process) would start new scorers for each.
 */
export const releaseScorers = Effect.sync(() => Isolation.release())

/**
 * A resampling that this machine cannot hold, refused before it starts (a usage error naming the
 * flag, the memory it would need and the most resamples that fit: scoring's
 * `Uncertainty.beyondMemory`), or undefined when it fits.
 */
export const checkResamples = (flag: string, resamples: number, figures: number): UsageError | undefined => {
  const beyond = Uncertainty.beyondMemory(resamples, figures)
  return beyond === undefined ? undefined : new UsageError({ message: `${flag}: ${Uncertainty.describeBeyond(resamples, figures, beyond)}` })
}

/** `--ci`, `--resamples`, `--seed` as given (each optional; flags win over a config file's `ci`). */
export interface CiFlags {
  readonly ci: Option.Option<number>
  readonly resamples: Option.Option<number>
  readonly seed: Option.Option<number>
}

/**
 * The intervals `--ci` asks for (`Uncertainty.compute`, the mapping every output shares), or
 * undefined without `--ci` (nor a config's `ci`). Bad settings are usage errors naming the flag.
 */
export const intervals = (
  results: Engine.Results,
  flags: CiFlags,
  config: { readonly level?: number | undefined; readonly resamples?: number | undefined; readonly seed?: number | undefined } = {},
  /** false: no pass for the metrics beside the ranked one (an output that shows only the ranked figure) */
  others = true
) =>
  Effect.gen(function*() {
    const given = Option.getOrUndefined(flags.ci) ?? config.level
    if (given === undefined) return undefined
    const level = Uncertainty.parseLevel(given)
    if (level === undefined) return yield* new UsageError({ message: `--ci: expected ${Uncertainty.levelExpected}, found ${given}` })
    const resamples = Option.getOrUndefined(flags.resamples) ?? config.resamples
    const seed = Option.getOrUndefined(flags.seed) ?? config.seed
    const tooMany = checkResamples("--resamples", resamples ?? Uncertainty.defaults.resamples, Uncertainty.figuresOf(results))
    if (tooMany !== undefined) return yield* tooMany
    yield* releaseScorers
    // a long computation on this thread: Ctrl-C and SIGTERM end it at once (@stseval/app/signals)
    const result = yield* cpuBound(() => Uncertainty.compute(results, { level, resamples, seed, others }))
    if (Uncertainty.isError(result)) {
      const flag = result.field === "resamples" ? "--resamples" : result.field === "seed" ? "--seed" : "--ci"
      return yield* new UsageError({ message: `${flag}: ${result.field}: expected ${result.expected}, found ${result.found}` })
    }
    return result
  })
