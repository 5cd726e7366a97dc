/**
 * The score cache: one file per scored run content (`cache/<key>.json`), the key a hash of the
 * run's content hash, the task and the scorer's signature (which names the gold and the engine
 * version), so a run is never scored twice for the same gold and engine, and a new gold or engine
 * never reuses an old score. Read back through its Effect Schema.
 *
 * @since 0.2.0
 */
import { Effect, FileSystem, Path, Schema } from "effect"
import { sha256, writeAtomic } from "./internal/files.js"
import { RunOutcome } from "./Scorer.js"

/** Bumped when the cache's layout or keying changes, so old entries are not read. @since 0.2.0 */
export const VERSION = 2

/** @since 0.2.0 */
export const CacheFile = Schema.Struct({
  key: Schema.String,
  task: Schema.String,
  signature: Schema.String,
  hash: Schema.String,
  outcome: RunOutcome
})
/** @since 0.2.0 */
export type CacheFile = typeof CacheFile.Type

/** The key of a run's content for a task and signature. @since 0.2.0 */
export const key = (hash: string, task: string, signature: string): string => sha256(`${VERSION}|${hash}|${task}|${signature}`)

const decodeEntry = Schema.decodeUnknownResult(Schema.fromJsonString(CacheFile))

const fileOf = (dir: string, k: string) => Effect.map(Path.Path, (path) => path.join(dir, `${k}.json`))

/**
 * The cached outcome of key `k` in folder `dir`, or undefined (absent, damaged, or another key).
 *
 * @since 0.2.0
 */
export const read = (dir: string, k: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(yield* fileOf(dir, k)).pipe(Effect.option)
    if (text._tag === "None") return undefined
    const entry = decodeEntry(text.value)
    return entry._tag === "Success" && entry.success.key === k ? entry.success.outcome : undefined
  })

/**
 * Cache an outcome (atomically).
 *
 * @since 0.2.0
 */
export const write = (dir: string, entry: CacheFile) =>
  Effect.flatMap(fileOf(dir, entry.key), (file) => writeAtomic(file, JSON.stringify(entry)))
