/**
 * The CLI's way into the scoring package: `--task`, `--gold` and `--data-root` handed to
 * `Engine.score` / `Engine.goldPath`, and the engine's errors turned into usage errors (one line
 * on stderr, exit 2) that say what to do.
 */
import { Effect, Option } from "effect"
import { DataStore, Registry } from "@stseval/formats"
import { Engine } from "@stseval/scoring"
import { Environment } from "./Environment.js"
import { UsageError } from "./Exit.js"

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

/** `Engine.score` with the common flags; every error that stops it is a usage error. */
export const score = (
  task: Registry.TaskEdition,
  flags: { readonly gold: Option.Option<string>; readonly dataRoot: Option.Option<string> },
  options: Omit<Engine.ScoreOptions, "task" | "gold" | "dataRoot"> & Partial<Pick<Engine.ScoreOptions, "primaryOnly">>
) =>
  Effect.flatMap(root(flags.dataRoot), (dataRoot) => Engine.score({ ...options, task, gold: Option.getOrUndefined(flags.gold), dataRoot })).pipe(
    Effect.mapError(usage)
  )
