/**
 * Turning `--task` and `--gold` into an edition and a gold location, with usage errors (exit 2)
 * that say what to do.
 */
import * as nodePath from "node:path"
import { Effect, FileSystem, Option } from "effect"
import { DataStore, Registry } from "@stseval/formats"
import { UsageError } from "./Exit.js"

export const edition = (idOrPath: string) =>
  Registry.resolve(idOrPath).pipe(Effect.mapError((e) => new UsageError({ message: `--task: ${e.message}` })))

export const root = (flag: Option.Option<string>): string => Option.getOrElse(flag, () => DataStore.defaultRoot())

/**
 * `--gold` as given, else `<data root>/<edition.data.dir>` when the data store has it; otherwise a
 * usage error naming both ways out.
 */
export const goldPath = Effect.fnUntraced(function*(
  task: Registry.TaskEdition,
  flag: Option.Option<string>,
  dataRoot: Option.Option<string>
) {
  const fs = yield* FileSystem.FileSystem
  if (Option.isSome(flag)) {
    if (!(yield* fs.exists(flag.value).pipe(Effect.orElseSucceed(() => false)))) {
      return yield* new UsageError({ message: `--gold: ${flag.value} does not exist` })
    }
    return flag.value
  }
  if (task.data === undefined) {
    return yield* new UsageError({
      message: `${task.id}: the registry knows no public source for its gold; give it with --gold <file|folder>`
    })
  }
  const dir = nodePath.join(root(dataRoot), task.data.dir)
  if (yield* fs.exists(dir).pipe(Effect.orElseSucceed(() => false))) return dir
  return yield* new UsageError({
    message: `${task.id}: no gold given and none in the data store (${dir}); run \`stseval data fetch ${task.id}\` or pass --gold <file|folder>`
  })
})
