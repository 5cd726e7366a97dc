/**
 * Scoring journals, one per batch of runs scored together: written before the batch is scored,
 * removed after it. A crash already blamed every run of a batch (each run's journal was written
 * before the batch was scored), so one file listing the batch's runs, each with its attempt, keeps
 * that meaning for one write and one removal a batch instead of one each a run (on 500 runs they
 * were 0.4-0.7 s of the first board's CPU).
 *
 * @internal
 */
import { Files } from "@stseval/formats"
import { Effect } from "effect"
import type { FileSystem, Path } from "effect"
import * as Cache from "../Cache.js"
import { sha256 } from "./files.js"
import { log } from "./session.js"
import type { Session } from "./session.js"

/**
 * What the journals a stop left behind say: each run's unfinished attempts, by cache key, and
 * each of those journals (by id) with the keys it still holds that no newer journal holds. A journal
 * is removed once a newer one holds all of its runs (their counts go on there), so a second crash
 * before they are scored again still finds them.
 */
export interface Journals {
  readonly attempts: Map<string, number>
  readonly left: Map<string, Set<string>>
}

const SUFFIX = ".scoring"

/**
 * The journals in `cache/` (`cacheFiles`, its listing), batches' and runs' of earlier versions;
 * `batched`: the keys the cache's batch files hold.
 * A run since cached is not scored again (the cache answers first): its count is dropped, and a
 * journal of cached runs only is removed.
 */
export const readJournals = (cacheDir: string, cacheFiles: Set<string>, batched: ReadonlyMap<string, string>): Effect.Effect<Journals, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const journals: Journals = { attempts: new Map(), left: new Map() }
    for (const name of [...cacheFiles]) {
      if (!name.endsWith(SUFFIX)) continue
      const id = name.slice(0, -SUFFIX.length)
      const keys = new Set<string>()
      for (const run of yield* Cache.journalRead(cacheDir, id)) {
        if (cacheFiles.has(`${run.key}.json`) || batched.has(run.key)) continue
        keys.add(run.key)
        journals.attempts.set(run.key, Math.max(journals.attempts.get(run.key) ?? 0, run.attempts))
      }
      if (keys.size > 0) journals.left.set(id, keys)
      else yield* Cache.journalClear(cacheDir, id).pipe(Effect.ignore, Effect.andThen(Effect.sync(() => cacheFiles.delete(name))))
    }
    return journals
  })

/** A run about to be scored: its cache key and its name. */
interface Starting {
  readonly key: string
  readonly entry: string
}

/**
 * The journal of runs about to be scored together, on disk before the scorer runs: if the scorer
 * takes the process down (out of memory, a native abort), the next start knows which runs it was
 * scoring. Its id (for `clearJournal`), and each run's unfinished attempts before this one.
 */
export const startJournal = (session: Session, runs: ReadonlyArray<Starting>) =>
  Effect.gen(function* () {
    const { attempts, left } = session.journals
    const crashes = runs.map((r) => attempts.get(r.key) ?? 0)
    // (a run at the limit stays there: an isolated scorer scores it again, and it counts no further)
    const listed = runs.map((r, i) => ({ key: r.key, entry: r.entry, attempts: Math.min(crashes[i] + 1, Cache.MAX_SCORING_ATTEMPTS) }))
    const id = sha256(runs.map((r) => r.key).join("\n"))
    const cacheDir = session.settings.cacheDir
    const written = yield* Cache.journalWrite(cacheDir, id, listed).pipe(
      Effect.as(true),
      Effect.catch((e) => Effect.as(Effect.forEach(runs, (r) => log(session, "error", `${r.entry}: the scoring journal could not be written: ${Files.describe(e)}`)), false))
    )
    if (written) {
      session.cacheFiles.add(`${id}${SUFFIX}`)
      // the counts the stop left go on in this journal: a journal whose runs all did is removed
      for (const r of runs) attempts.delete(r.key)
      for (const [old, keys] of left) {
        if (old === id) {
          left.delete(old)
          continue
        }
        for (const r of runs) keys.delete(r.key)
        if (keys.size > 0) continue
        left.delete(old)
        yield* clearJournal(session, old)
      }
    }
    // A scorer that isolates runs cannot be stopped by one: an unfinished attempt means the
    // watcher itself was stopped from outside (a kill, the machine out of memory), so the run is
    // scored again (in isolation, where a run that really is the cause fails with its reason).
    // Only a scorer that is not isolated gives a run up as "crashed the scorer".
    if (session.scorer.isolated === true) {
      for (const [i, r] of runs.entries()) {
        const n = crashes[i]
        if (n > 0) yield* log(session, "warn", `${r.entry}: the watcher stopped ${n} time${n === 1 ? "" : "s"} while scoring this run (from outside: runs are scored in isolation); scoring it again`)
      }
    }
    return { id, crashes }
  })

/** The runs of journal `id` are scored (or given up on): it goes. */
export const clearJournal = (session: Session, id: string) =>
  Cache.journalClear(session.settings.cacheDir, id).pipe(Effect.ignore, Effect.andThen(Effect.sync(() => session.cacheFiles.delete(`${id}${SUFFIX}`))))
