/**
 * A folder's files as one zip (their paths relative to the folder at the zip's root), written
 * whole or not at all: what an organiser uploads to Codabench (a bundle, a reference data).
 *
 * @internal
 */
import { Files } from "@stseval/formats"
import { Effect, FileSystem, Path } from "effect"
import { zipSync } from "fflate"

/** Every file under `root`, relative, sorted (folders walked, other entries skipped). */
export const walk = (fs: FileSystem.FileSystem, path: Path.Path, root: string, dir = ""): Effect.Effect<ReadonlyArray<string>, never> =>
  Effect.gen(function* () {
    const names = (yield* fs.readDirectory(path.join(root, dir)).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))).slice().sort()
    const out: Array<string> = []
    for (const name of names) {
      const rel = dir === "" ? name : `${dir}/${name}`
      const info = yield* fs.stat(path.join(root, rel)).pipe(Effect.option)
      if (info._tag === "None") continue
      if (info.value.type === "Directory") out.push(...(yield* walk(fs, path, root, rel)))
      else out.push(rel)
    }
    return out
  })

/** Zip `folder`'s files into `zipPath` (atomically). */
export const zipFolder = (folder: string, zipPath: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const files: Record<string, Uint8Array> = {}
    for (const rel of yield* walk(fs, path, folder)) files[rel] = yield* fs.readFile(path.join(folder, rel))
    yield* Files.writeAtomic(zipPath, zipSync(files, { level: 6 }))
  })
