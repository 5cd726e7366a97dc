/**
 * The score cache: one file per scored run content, keyed by its content hash, the task and the
 * scorer's signature, so a run is never scored twice for one gold and engine, and a new gold or
 * engine never reuses an old score.
 *
 * @since 0.2.0
 */
import { Files, Issue } from "@stseval/formats"
import { Effect, FileSystem, Path, Result, Schema } from "effect"
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

/** What the cache holds for key `k` in `text`, a run's file or a batch file's line (`file` names it in a reason). */
const entryIn = (file: string, text: string, k: string): Lookup => {
  const entry = decodeEntry(text)
  // (cut: a Schema message may quote the oversized value itself)
  if (entry._tag === "Failure") return { _tag: "Dropped", reason: Issue.cut(`${file}: ${entry.failure.message.split("\n")[0]}`, Issue.MAX_MESSAGE_LENGTH) }
  return entry.success.key === k ? { _tag: "Hit", outcome: entry.success.outcome } : { _tag: "Miss" }
}

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
    return entryIn(file, new TextDecoder().decode(read.success), k)
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
 * A batch's entries file (`cache/<id>.entries`): one `CacheFile` a line (JSON, its `key` first), in
 * one atomic write for the batch, not one file (a temp file and a rename) a run: on 500 runs those
 * were 170-290 ms of the first board's CPU, mostly the kernel's, against 2 ms for one file. Ids are
 * numbers in write order (`b00000001`), so where a key is in two files the newer one wins.
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * const suffix: string = Cache.BATCH_SUFFIX // cache/b00000001.entries
 * ```
 * @since 0.5.0
 */
export const BATCH_SUFFIX = ".entries"

/**
 * The largest batch file read or written (bytes): a batch's entries beyond it go to a further file.
 * Each line is still at most `MAX_ENTRY_BYTES`: a longer one is neither written nor read.
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * const limit: number = Cache.MAX_BATCH_BYTES
 * ```
 * @since 0.5.0
 */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024

const batchOf = (dir: string, id: string) => Effect.map(Path.Path, (path) => path.join(dir, `${id}${BATCH_SUFFIX}`))

// the key a line holds, without decoding it: `JSON.stringify` of a `CacheFile` puts it first
const KEY_OF_LINE = /^\{"key":"([0-9a-f]{1,128})"/

/**
 * The lines of batch file `id`, by key (the last line of a key wins), each at most
 * `MAX_ENTRY_BYTES`; `Failure` with why when the file cannot be read (missing, too large, not a file).
 * A line that is not an entry (a crash cannot leave one: the file is written whole) is left out.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Cache } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * const lines = await Effect.runPromise(Cache.batchRead("board/cache", "b00000001").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.5.0
 */
export const batchRead = (dir: string, id: string) =>
  Effect.gen(function* () {
    const file = yield* batchOf(dir, id)
    const read = yield* Files.readFile(file, { maxBytes: MAX_BATCH_BYTES, what: "the cache's batch file" }).pipe(Effect.result)
    if (read._tag === "Failure") return Result.fail({ missing: read.failure.reason === "missing", message: read.failure.message })
    const lines = new Map<string, string>()
    for (const line of new TextDecoder().decode(read.success).split("\n")) {
      const m = KEY_OF_LINE.exec(line.slice(0, 256))
      // (a line over the entry's bound is not kept: its key says `Dropped`, the run is scored again)
      if (m !== null) lines.set(m[1], line.length > MAX_ENTRY_BYTES ? "" : line)
    }
    return Result.succeed(lines)
  })

/**
 * Look key `k` up among a batch file's lines (`batchRead`), as `lookup` does a run's file.
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * declare const lines: ReadonlyMap<string, string>, k: string
 * const found = Cache.lookupLine("board/cache/b00000001.entries", lines, k)
 * ```
 * @since 0.5.0
 */
export const lookupLine = (file: string, lines: ReadonlyMap<string, string>, k: string): Lookup => {
  const line = lines.get(k)
  if (line === undefined) return { _tag: "Miss" }
  // ("" : a line `batchRead` found over the bound; a shorter one may still be over it in UTF-8)
  if (line === "" || (line.length * 3 > MAX_ENTRY_BYTES && new TextEncoder().encode(line).length > MAX_ENTRY_BYTES)) {
    return { _tag: "Dropped", reason: `${file}: the entry is more than the limit of ${MAX_ENTRY_BYTES} bytes` }
  }
  return entryIn(file, line, k)
}

/**
 * The lines of a batch's entries, each at most `MAX_ENTRY_BYTES` (a longer one is left out: it
 * would be dropped when read), cut into files of at most `MAX_BATCH_BYTES`.
 *
 * @example
 * ```ts
 * import { Cache } from "@stseval/leaderboard"
 *
 * declare const entries: ReadonlyArray<Cache.CacheFile>
 * const files: ReadonlyArray<ReadonlyArray<Cache.CacheFile>> = Cache.batchFiles(entries).map((f) => f.entries)
 * ```
 * @since 0.5.0
 */
export const batchFiles = (entries: ReadonlyArray<CacheFile>) => {
  const files: Array<{ text: string; bytes: number; entries: Array<CacheFile> }> = []
  let last: (typeof files)[number] | undefined
  for (const entry of entries) {
    // (key first: `KEY_OF_LINE` reads it without decoding the line)
    const line = JSON.stringify({ key: entry.key, task: entry.task, signature: entry.signature, hash: entry.hash, outcome: entry.outcome }) + "\n"
    const bytes = new TextEncoder().encode(line).length
    if (bytes > MAX_ENTRY_BYTES) continue
    if (last === undefined || last.bytes + bytes > MAX_BATCH_BYTES) files.push((last = { text: "", bytes: 0, entries: [] }))
    last.text += line
    last.bytes += bytes
    last.entries.push(entry)
  }
  return files
}

/**
 * Write one batch file `id` of the given lines (`batchFiles`), atomically.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Cache } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * declare const entries: ReadonlyArray<Cache.CacheFile>
 * for (const [i, f] of Cache.batchFiles(entries).entries()) {
 *   await Effect.runPromise(Cache.batchWrite("board/cache", `b0000000${i + 1}`, f.text).pipe(Effect.provide(NodeServices.layer)))
 * }
 * ```
 * @since 0.5.0
 */
export const batchWrite = (dir: string, id: string, text: string) => Effect.flatMap(batchOf(dir, id), (file) => writeAtomic(file, text))

/**
 * Remove batch file `id` (its entries all superseded).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Cache } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * await Effect.runPromise(Cache.batchRemove("board/cache", "b00000001").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.5.0
 */
export const batchRemove = (dir: string, id: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    yield* fs.remove(yield* batchOf(dir, id), { force: true })
  })

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
