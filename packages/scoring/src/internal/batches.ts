/**
 * How the engine shares runs out: the size of a run on disk and what it is (`lookAt`), and runs sent to scorers
 * in batches (`batchesOf`), small ones together and a large one alone.
 *
 * @internal
 */
import * as nodePath from "node:path"
import type { Submissions } from "@stseval/formats"

/**
 * Runs scored on one thread before a second is worth its start. A scorer reads and checks 8 MiB of
 * small runs in about 150 ms of its thread, but a second one costs about 200 ms of CPU (its start,
 * and V8 compiling and collecting for a second heap) and 25 MB: `rank` of 2,000 STS-B runs (17 MiB)
 * in two scorers took the same wall time as in one, from the folder's listing to the last answer
 * (0.43-0.49 s against 0.42 s, a loaded 2-core machine), and 0.2-0.25 s more CPU.
 */
export const MB_PER_WORKER = 32

/**
 * At most this many small runs are scored on the engine's thread; more go to scorers in batches:
 * `rank` of 2,000 STS-B runs all on the engine's thread took 4.1 s of CPU against 3.6 s in two
 * scorers (their reads synchronous), and twice the wall time. A scorer's start (50-100 ms of CPU)
 * is worth it for a folder, not for a few runs.
 */
export const IN_THREAD_RUNS = 16

/**
 * Whether one of `paths` is a folder of more entries than the engine's thread scores alone
 * (`most`, IN_THREAD_RUNS), whose runs scorers will read: a listing per folder (one the scoring's own
 * listing then finds cached), nothing for a path that is not a folder. Self-contained: a loader runs
 * its source (`Isolation.scorerThread`).
 */
export const manyRuns = (paths: ReadonlyArray<string>, most: number = IN_THREAD_RUNS): boolean => {
  const fs = process.getBuiltinModule("node:fs")
  return paths.some((p) => {
    try {
      return fs.readdirSync(p).length > most
    } catch {
      return false
    }
  })
}

/** A run as the engine looked at it: its size (`sizeOf`) and what it is (`Submissions.EntryKind`). */
export interface Look {
  readonly mb: number
  /** undefined when it could not be looked at (gone, a broken link): its scorer looks again and says why */
  readonly kind: Submissions.EntryKind | undefined
}

const kindOf = (info: { isFile(): boolean; isDirectory(): boolean }): Submissions.EntryKind["type"] => (info.isFile() ? "File" : info.isDirectory() ? "Directory" : "Other")

/**
 * The bytes a run's scorer will read, as the file system tells them (a folder's files, at most
 * three levels down as runs are read), in MiB, and what the run is: an `lstat` (and a `stat` of a
 * link's target), which the scorer is given (`Submissions.DiscoverOptions.lookedAt`) instead of
 * looking again. A zip counts as at least 16 MiB: what it unpacks to is not known before, only
 * capped (32 MiB, `Submissions.DiscoverOptions.maxZipBytes`), so two zips at most are read at
 * once, whose memory stays within that of 32 MiB of runs.
 */
export const lookAt = (p: string): Look => {
  // Plain synchronous calls: a run is one call here (a folder run a few), cheap on a local disk,
  // and 2,000 of them through the asynchronous file system took 0.2 s of `rank`'s start (20 ms so).
  const fs = process.getBuiltinModule("node:fs")
  const mib = (bytes: number) => bytes / 2 ** 20
  const walk = (dir: string, depth: number): number => {
    let total = 0
    let names: Array<string>
    try {
      names = fs.readdirSync(dir)
    } catch {
      return 0
    }
    for (const name of names) {
      const info = fs.statSync(nodePath.join(dir, name), { throwIfNoEntry: false })
      if (info === undefined) continue
      if (info.isFile()) total += info.size
      else if (info.isDirectory() && depth < 3) total += walk(nodePath.join(dir, name), depth + 1)
    }
    return total
  }
  let info
  let link = false
  try {
    info = fs.lstatSync(p, { throwIfNoEntry: false })
    if (info?.isSymbolicLink() === true) {
      link = true
      info = fs.statSync(p, { throwIfNoEntry: false })
    }
  } catch {
    return { mb: 0, kind: undefined }
  }
  if (info === undefined) return { mb: 0, kind: undefined }
  const kind = { type: kindOf(info), link }
  if (info.isDirectory()) return { mb: mib(walk(p, 1)), kind }
  return { mb: /\.zip$/i.test(p) ? Math.max(mib(info.size), 16) : mib(info.size), kind }
}

/**
 * A run at most this large (MiB, on disk) sent to a scorer is read in a batch with others
 * (`batchesOf`; such runs are scored on the engine's thread unless `Isolation.Options.inThreadMb` says not).
 */
const BATCHED_MB = 1

/** A batch's runs hold at most this many MiB between them. */
const BATCH_MB = 4

/**
 * A batch holds at most this many runs. A scorer waits between two batches (its last answers read,
 * the next batch sent: 1-5 ms on this thread, busy with the runs' figures): `rank --json` of 2,000
 * STS-B runs, one scorer, 8 batches instead of 32, spent 10-20% less time in its
 * batches (load 6). A batch whose scorer fails sends its unanswered runs again one by one.
 */
const BATCH_RUNS = 256

/**
 * The jobs' runs (by index, in order) in batches: a large run alone, small ones together, so that
 * 2,000 small runs are not 2,000 round trips to a scorer and the file-system calls of a batch's
 * runs overlap (measured on `rank` of 2,000 STS-B runs, two scorers: 3.4 s one run per job,
 * see the bench). Batches are sized so that each scorer gets a few (the runs are shared out evenly
 * as scorers finish), and a run's fate is still decided alone (`Isolated.runBatch`).
 */
export const batchesOf = (sizes: ReadonlyArray<number>, workers: number): ReadonlyArray<ReadonlyArray<number>> => {
  const small = sizes.filter((mb) => mb <= BATCHED_MB).length
  const perBatch = Math.max(1, Math.min(BATCH_RUNS, Math.ceil(small / (workers * 4))))
  const batches: Array<Array<number>> = []
  let open: Array<number> = []
  let openMb = 0
  const close = () => {
    if (open.length > 0) batches.push(open)
    open = []
    openMb = 0
  }
  sizes.forEach((mb, i) => {
    if (mb > BATCHED_MB) return batches.push([i])
    if (open.length === perBatch || openMb + mb > BATCH_MB) close()
    open.push(i)
    openMb += mb
  })
  close()
  return batches
}
