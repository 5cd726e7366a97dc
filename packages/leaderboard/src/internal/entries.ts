/**
 * The score cache's batch files (`Cache.BATCH_SUFFIX`): which file holds each key, read once at
 * the start from every batch file's lines (their keys only, not decoded), and kept by the
 * session's own writes. A key written again (its entry was dropped, or its run scored again) is
 * the newer file's: the older file's other entries stay valid, and a file with none left is
 * removed; one with fewer than half left is compacted at the next start.
 *
 * @internal
 */
import { Effect, Path } from "effect"
import type { FileSystem } from "effect"
import * as Cache from "../Cache.js"

export interface Batches {
  /** per key, the batch file (id) whose entry is the newest */
  readonly keys: Map<string, string>
  /** per batch file, its keys no newer file holds */
  readonly live: Map<string, Set<string>>
  /** the number of the next batch file */
  next: number
  /** the last batch file read for a lookup (files are never rewritten: a run's batch is read once) */
  memo: { readonly id: string; readonly lines: ReadonlyMap<string, string> } | undefined
}

const ID = /^b(\d{8,15})$/

const idOf = (n: number) => `b${String(n).padStart(8, "0")}`

/** Note that batch file `id` holds `keys`: the newest entry of each; a file left with none goes. */
const own = (cacheDir: string, batches: Batches, id: string, keys: Iterable<string>) =>
  Effect.gen(function* () {
    const mine = batches.live.get(id) ?? new Set<string>()
    batches.live.set(id, mine)
    for (const k of keys) {
      const old = batches.keys.get(k)
      batches.keys.set(k, id)
      mine.add(k)
      if (old === undefined || old === id) continue
      const left = batches.live.get(old)
      left?.delete(k)
      if (left !== undefined && left.size === 0) yield* drop(cacheDir, batches, old)
    }
  })

const drop = (cacheDir: string, batches: Batches, id: string) =>
  Effect.gen(function* () {
    batches.live.delete(id)
    if (batches.memo?.id === id) batches.memo = undefined
    yield* Cache.batchRemove(cacheDir, id).pipe(Effect.ignore)
  })

/**
 * The batch files among `cacheFiles` (the listing of `cache/`), in write order. One that cannot be
 * read (too large, not a file) is removed: its runs are scored again. One whose entries are mostly
 * superseded is compacted: its live lines written to a new file, and it removed.
 */
export const readBatches = (cacheDir: string, cacheFiles: ReadonlySet<string>): Effect.Effect<Batches, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const batches: Batches = { keys: new Map(), live: new Map(), next: 1, memo: undefined }
    const ids = [...cacheFiles]
      .filter((n) => n.endsWith(Cache.BATCH_SUFFIX))
      .map((n) => n.slice(0, -Cache.BATCH_SUFFIX.length))
      .filter((id) => ID.test(id))
      .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))
    const total = new Map<string, number>()
    for (const id of ids) {
      batches.next = Math.max(batches.next, Number(id.slice(1)) + 1)
      const read = yield* Cache.batchRead(cacheDir, id)
      if (read._tag === "Failure") {
        yield* Cache.batchRemove(cacheDir, id).pipe(Effect.ignore)
        continue
      }
      total.set(id, read.success.size)
      yield* own(cacheDir, batches, id, read.success.keys())
    }
    for (const [id, keys] of [...batches.live]) {
      if (keys.size * 2 >= (total.get(id) ?? 0)) continue
      const read = yield* Cache.batchRead(cacheDir, id)
      if (read._tag === "Failure") continue
      const lines = [...keys].flatMap((k) => {
        const line = read.success.get(k)
        return line === undefined ? [] : [line + "\n"]
      })
      const fresh = idOf(batches.next++)
      const written = yield* Cache.batchWrite(cacheDir, fresh, lines.join("")).pipe(Effect.as(true), Effect.orElseSucceed(() => false))
      if (written) yield* own(cacheDir, batches, fresh, keys)
    }
    return batches
  })

/** Key `k` was written in its own file (a run scored alone): no batch file's entry of it is the newest. */
export const forget = (cacheDir: string, batches: Batches, k: string) =>
  Effect.gen(function* () {
    const id = batches.keys.get(k)
    if (id === undefined) return
    batches.keys.delete(k)
    const left = batches.live.get(id)
    left?.delete(k)
    if (left !== undefined && left.size === 0) yield* drop(cacheDir, batches, id)
  })

/** Key `k`'s entry in its batch file, or `undefined` when no batch file holds it. */
export const lookupBatch = (cacheDir: string, batches: Batches, k: string): Effect.Effect<Cache.Lookup | undefined, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const id = batches.keys.get(k)
    if (id === undefined) return undefined
    const file = (yield* Path.Path).join(cacheDir, `${id}${Cache.BATCH_SUFFIX}`)
    if (batches.memo?.id !== id) {
      const read = yield* Cache.batchRead(cacheDir, id)
      if (read._tag === "Failure") return read.failure.missing ? ({ _tag: "Miss" } as const) : ({ _tag: "Dropped", reason: read.failure.message } as const)
      batches.memo = { id, lines: read.success }
    }
    return Cache.lookupLine(file, batches.memo.lines, k)
  })

/**
 * Write a batch's entries, one atomic file (or a few, past `Cache.MAX_BATCH_BYTES`): each key's
 * newest entry from now on. Fails as the write does (the caller logs it per run).
 */
export const writeBatch = (cacheDir: string, batches: Batches, entries: ReadonlyArray<Cache.CacheFile>) =>
  Effect.gen(function* () {
    for (const f of Cache.batchFiles(entries)) {
      const id = idOf(batches.next++)
      yield* Cache.batchWrite(cacheDir, id, f.text)
      yield* own(cacheDir, batches, id, f.entries.map((e) => e.key))
    }
  })
