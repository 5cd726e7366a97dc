/**
 * The score cache: one file per scored run content, keyed by its content hash, the task and the
 * scorer's signature, so a run is never scored twice for one gold and engine, and a new gold or
 * engine never reuses an old score.
 *
 * @since 0.2.0
 */
import { Files, Issue } from "@stseval/formats"
import { Effect, FileSystem, Path, Schema } from "effect"
import { sha256, writeAtomic } from "./internal/files.js"
import { RunOutcome } from "./Scorer.js"

/**
 * Bumped when the cache's layout or keying changes, so old entries are not read (3: the outcome
 * is scoring's JSON of the run, `Scorer.RunOutcome`).
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * const version: number = Cache.VERSION // in every key: a new cache layout never reads an old entry
 * ```
 * @since 0.2.0
 */
export const VERSION = 3

/**
 * One cached score (`cache/<key>.json`): the run's outcome, under the key of its content hash, the
 * task and the scorer's signature, so that a new gold or engine never reuses it.
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * const entry: Cache.CacheFile = {
 *   key: Cache.key("9f3e51b0", "sick2014", "sick2014@c78910a0|gold:1933db41|agg:single|stseval-scoring@0.2.0"),
 *   task: "sick2014",
 *   signature: "sick2014@c78910a0|gold:1933db41|agg:single|stseval-scoring@0.2.0",
 *   hash: "9f3e51b0",
 *   outcome: { status: "failed", failure: "the file is empty", official: [], errors: [], warnings: [] }
 * }
 * ```
 * @since 0.2.0
 */
export const CacheFile = Schema.Struct({
  key: Schema.String,
  task: Schema.String,
  signature: Schema.String,
  hash: Schema.String,
  outcome: RunOutcome
})
/** @since 0.2.0 */
export type CacheFile = typeof CacheFile.Type

/**
 * The key of a run's content for a task and signature.
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * // the same bytes scored for the same task with the same engine and gold: the same key
 * const k = Cache.key("9f3e51b0", "sick2014", "sick2014@c78910a0|gold:1933db41|agg:single|stseval-scoring@0.2.0")
 * ```
 * @since 0.2.0
 */
export const key = (hash: string, task: string, signature: string): string => sha256(`${VERSION}|${hash}|${task}|${signature}`)

const decodeEntry = Schema.decodeUnknownResult(Schema.fromJsonString(CacheFile))

const fileOf = (dir: string, k: string) => Effect.map(Path.Path, (path) => path.join(dir, `${k}.json`))

/**
 * The largest cache file read (bytes). A bounded outcome takes well under 1 MB; a larger file is
 * from before the bounds (once 238 MB) and would cost memory at every start: dropped, re-scored.
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * const limit: number = Cache.MAX_ENTRY_BYTES
 * ```
 * @since 0.4.0
 */
export const MAX_ENTRY_BYTES = 4 * 1024 * 1024

/**
 * What the cache holds for a key: `Hit`, `Miss` (absent, or another key's), or `Dropped` with why
 * (too large, damaged, outside today's bounds): the run is scored again.
 *
 * @since 0.4.0
 */
export type Lookup =
  | { readonly _tag: "Hit"; readonly outcome: RunOutcome }
  | { readonly _tag: "Miss" }
  | { readonly _tag: "Dropped"; readonly reason: string }

/**
 * Look key `k` up in folder `dir`: only a regular file of at most `MAX_ENTRY_BYTES`, decoded
 * through `CacheFile`; anything else is `Dropped`, never an error, so a restart never dies on it.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Cache } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * declare const k: string
 * const found = await Effect.runPromise(Cache.lookup("board/cache", k).pipe(Effect.provide(NodeServices.layer)))
 * if (found._tag === "Dropped") console.warn(`cache entry dropped: ${found.reason}`)
 * ```
 * @since 0.4.0
 */
export const lookup = (dir: string, k: string): Effect.Effect<Lookup, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const file = yield* fileOf(dir, k)
    const read = yield* Files.readFile(file, { maxBytes: MAX_ENTRY_BYTES, what: "the cache entry" }).pipe(Effect.result)
    if (read._tag === "Failure") {
      return read.failure.reason === "missing" ? ({ _tag: "Miss" } as const) : ({ _tag: "Dropped", reason: read.failure.message } as const)
    }
    const entry = decodeEntry(new TextDecoder().decode(read.success))
    // (cut: a Schema message may quote the oversized value itself)
    if (entry._tag === "Failure") return { _tag: "Dropped", reason: Issue.cut(`${file}: ${entry.failure.message.split("\n")[0]}`, Issue.MAX_MESSAGE_LENGTH) } as const
    return entry.success.key === k ? ({ _tag: "Hit", outcome: entry.success.outcome } as const) : ({ _tag: "Miss" } as const)
  })

/**
 * Cache an outcome (atomically).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Cache } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * declare const entry: Cache.CacheFile
 * await Effect.runPromise(Cache.write("board/cache", entry).pipe(Effect.provide(NodeServices.layer))) // atomic: temp file, then rename
 * ```
 * @since 0.2.0
 */
export const write = (dir: string, entry: CacheFile) =>
  Effect.flatMap(fileOf(dir, entry.key), (file) => writeAtomic(file, JSON.stringify(entry)))

/**
 * How many times a run may stop the watcher while being scored: the first may be a kill from
 * outside (`kill -9`, the OOM killer), so it is tried once more; the second fails it as "crashed
 * the scorer", so no run can crash-loop the watcher.
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * // a run that crashed the watcher this many times is marked failed instead of scored again
 * const attempts: number = Cache.MAX_SCORING_ATTEMPTS
 * ```
 * @since 0.2.0
 */
export const MAX_SCORING_ATTEMPTS = 2

/** A scoring journal's file: `cache/<id>.scoring`. */
const journalOf = (dir: string, id: string) => Effect.map(Path.Path, (path) => path.join(dir, `${id}.scoring`))

/**
 * A run in a scoring journal: its cache key, its name in the submissions folder, and the attempts
 * at scoring it that began, the one the journal was written for included.
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * const run: Cache.JournalRun = { key: "5c1e...", entry: "ECNU_run1primary", attempts: 1 }
 * ```
 * @since 0.5.0
 */
export const JournalRun = Schema.Struct({ key: Schema.String, entry: Schema.String, attempts: Schema.Int })
/** @since 0.5.0 */
export type JournalRun = typeof JournalRun.Type

// a batch's journal (every run scored together), and the one run's journal of earlier versions,
// `<key>.scoring`, still read: a crash under the earlier version counts its attempt
const decodeBatchJournal = Schema.decodeUnknownResult(Schema.fromJsonString(Schema.Struct({ runs: Schema.Array(JournalRun), startedAt: Schema.Finite })))
const decodeRunJournal = Schema.decodeUnknownResult(Schema.fromJsonString(Schema.Struct({ entry: Schema.String, attempts: Schema.Int, startedAt: Schema.Finite })))

/** The largest journal read (bytes): a batch of 64 runs writes a few KB. */
const MAX_JOURNAL_BYTES = 1024 * 1024

/**
 * The runs a scoring journal (`cache/<id>.scoring`) lists: a batch's, or the one run of an earlier
 * version's journal (`id` its key). Empty when it cannot be read or decoded, never an error: a
 * start never dies on what a crash left.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Cache } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * // the runs being scored when the watcher stopped, each with its attempts so far
 * const runs = await Effect.runPromise(Cache.journalRead("board/cache", "5c1e...").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.5.0
 */
export const journalRead = (dir: string, id: string): Effect.Effect<ReadonlyArray<JournalRun>, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    // read as a cache entry is (a regular file, capped): whatever is left there never hangs a start
    const bytes = yield* Files.readFile(yield* journalOf(dir, id), { maxBytes: MAX_JOURNAL_BYTES, what: "the scoring journal" }).pipe(Effect.option)
    if (bytes._tag === "None") return []
    const text = new TextDecoder().decode(bytes.value)
    const batch = decodeBatchJournal(text)
    if (batch._tag === "Success") return batch.success.runs
    const one = decodeRunJournal(text)
    return one._tag === "Success" ? [{ key: id, entry: one.success.entry, attempts: one.success.attempts }] : []
  })

/**
 * Record that scoring of `runs` starts (atomically), in one journal `cache/<id>.scoring`: if the
 * scorer takes the process down, the next start finds each of them with its attempts.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Cache } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * declare const id: string, k: string
 * // noted before scoring: a crash mid-scoring leaves the note, and counts as an attempt
 * await Effect.runPromise(Cache.journalWrite("board/cache", id, [{ key: k, entry: "ECNU_run1primary", attempts: 1 }]).pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.5.0
 */
export const journalWrite = (dir: string, id: string, runs: ReadonlyArray<JournalRun>) =>
  Effect.flatMap(journalOf(dir, id), (file) => writeAtomic(file, JSON.stringify({ runs, startedAt: Date.now() })))

/**
 * Scoring of journal `id`'s runs finished (or was given up on): clear it.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Cache } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * declare const id: string
 * await Effect.runPromise(Cache.journalClear("board/cache", id).pipe(Effect.provide(NodeServices.layer))) // scored: the note goes
 * ```
 * @since 0.2.0
 */
export const journalClear = (dir: string, id: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    yield* fs.remove(yield* journalOf(dir, id), { force: true })
  })
