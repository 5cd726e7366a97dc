/**
 * Scoring workers: load a settled run, hash its bytes, take its outcome from the cache or score
 * it (and cache it), and publish it, unless the run moved on meanwhile: a run deleted or changed
 * while it was scored must not come back as a ghost.
 *
 * @internal
 */
import { Files, Submissions } from "@stseval/formats"
import { Cause, Effect, Exit, FiberMap, Path, Queue, Stream } from "effect"
import type { FileSystem, PlatformError, Result } from "effect"
import * as Cache from "../Cache.js"
import type { RunOutcome } from "../Scorer.js"
import { hashSubmission, seenIn, signature } from "./files.js"
import { removeEntry, touch } from "./runs.js"
import { log, logged, markDone, setStatus } from "./session.js"
import type { Session, Track, WorkItem } from "./session.js"

/** Score a run; a defect in the scorer is a failed outcome that is not cached. */
const scoreSafely = (session: Session, sub: Submissions.Submission) =>
  session.scorer.score(sub).pipe(
    Effect.exit,
    Effect.map((exit): { outcome: RunOutcome; cacheable: boolean } => {
      if (Exit.isSuccess(exit)) return { outcome: exit.value, cacheable: true }
      const message = Cause.pretty(exit.cause).split("\n")[0] ?? "unknown error"
      return {
        outcome: { status: "failed", failure: `the scorer crashed: ${message}`, official: [], errors: [], warnings: [] },
        cacheable: false
      }
    })
  )

/**
 * The outcome with every path named relative to the submissions folder: published files must not
 * name the server's folders. Files in `elsewhere` (the gold's folders) are named by their path
 * inside them. Applied to cached outcomes too.
 */
export const relativeOutcome = (outcome: RunOutcome, folder: string, resolved: string, sep: string, elsewhere: ReadonlyArray<string> = []): RunOutcome => {
  const bare = [...new Set([resolved, folder, ...elsewhere])]
    .map((f) => (f.endsWith(sep) ? f.slice(0, -sep.length) : f))
    .filter((f) => f !== "")
    // longest first: a folder inside another is cut as a whole
    .sort((a, b) => b.length - a.length)
  const prefixes = bare.map((f) => f + sep)
  // made once per outcome, not once per string of it (an outcome holds hundreds of strings)
  const named = bare.map((f) => new RegExp(`( ?)${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=$|[\\s;,:)"'])`, "g"))
  const strip = (value: unknown): unknown => {
    if (typeof value === "string") {
      // most strings name no folder: left as they are
      if (!bare.some((f) => value.includes(f))) return value
      let out = value
      for (const p of prefixes) out = out.split(p).join("")
      // the folder itself, named in a message ("outside the submissions folder /srv/runs; ...")
      for (const r of named) out = out.replace(r, (_, space: string) => (space === " " ? "" : "."))
      return out
    }
    if (Array.isArray(value)) return value.map(strip)
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v)]))
    return value
  }
  return strip(outcome) as RunOutcome
}

/**
 * With intervals on (`--ci`), the engine's scored run of a run scored as `scored`: its aligned
 * scores are what intervals are computed from (see `ScoringAdapter.layer` for why they come from
 * the bytes, not the cache). A defect here leaves the run without them (and the board without
 * intervals), logged; its figures stand.
 */
const scoredRunOf = (session: Session, t: Track, sub: Submissions.Submission, outcome: RunOutcome) =>
  (session.settings.ci === undefined && !session.settings.marks) || outcome.status !== "scored" || session.scorer.scoreRun === undefined
    ? Effect.succeed(undefined)
    : session.scorer.scoreRun(sub).pipe(
        Effect.catchDefect((defect) =>
          Effect.as(log(session, "error", `${t.entry}: no aligned scores for the intervals and marks: ${defect instanceof Error ? defect.message : String(defect)}`), undefined)
        )
      )

const current = (session: Session, t: Track, generation: number) => session.tracks.get(t.entry) === t && t.generation === generation

/**
 * The run's signature again, before it is published. With file-system events on, a `run.json` its
 * settling did not find is not looked for (two stats per run): one written since is an event, which
 * settles the run again (a new generation). Without events, every name is looked for.
 */
const lookAgain = (session: Session, item: WorkItem) =>
  signature(session.settings.folder, item.track.entry, session.edition, session.settings.useEvents ? seenIn(item.sig) : undefined)

// The process's own resources, not the run's (too many open files, no memory, try again): a run
// that could not be read for these is not failed but read again later.
const RESOURCE_CODES = new Set(["EMFILE", "ENFILE", "ENOMEM", "EAGAIN"])
// as `Files` words a read that failed on such a code: "<path>: the run file cannot be read (EMFILE: ...)"
const RESOURCE_ISSUE = /cannot be read \((EMFILE|ENFILE|ENOMEM|EAGAIN): [^()]*\)(?:;|$)/

/** The errno of an error (Effect's `PlatformError` keeps Node's under `reason.cause`). */
const errnoOf = (e: unknown): string | undefined => {
  for (let o: unknown = e, depth = 0; typeof o === "object" && o !== null && depth < 4; depth++) {
    const code = (o as { readonly code?: unknown }).code
    if (typeof code === "string") return code
    const r = o as { readonly reason?: unknown; readonly cause?: unknown }
    o = typeof r.reason === "object" && r.reason !== null ? r.reason : r.cause
  }
  return undefined
}

/** The resource code a loaded run's issues or an outcome's errors name, if any. */
const resourceIn = (issues: ReadonlyArray<{ readonly code: string; readonly message: string }>): string | undefined => {
  for (const i of issues) {
    const m = i.code === "file-unreadable" || i.code === "bad-run-metadata" || i.code === "scorer-crashed" ? RESOURCE_ISSUE.exec(i.message) : null
    if (m !== null) return m[1]
  }
  return undefined
}

// a run read again after a resource error waits 1 s, then 2, 4... up to a minute
const RETRY_FIRST_MS = 1000
const RETRY_MAX_MS = 60_000
const retries = new WeakMap<Track, number>()

/**
 * The run could not be read or scored for the process's own reasons (`code`): it is not failed,
 * nor cached; it stays queued and is read again after a pause that doubles each time.
 */
const retryLater = (session: Session, item: WorkItem, code: string) =>
  Effect.gen(function* () {
    const t = item.track
    const n = retries.get(t) ?? 0
    retries.set(t, n + 1)
    const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** n)
    yield* log(session, "warn", `${t.entry}: not read now (${code}: this process is short of ${code === "ENOMEM" ? "memory" : "open files"}, not a problem of the run); read again in ${wait / 1000} s`)
    setStatus(session, t, "queued")
    yield* FiberMap.run(
      session.debouncers,
      `\0retry\0${t.entry}`,
      Effect.sleep(wait).pipe(Effect.andThen(Effect.sync(() => {
        if (current(session, t, item.generation)) Queue.offerUnsafe(session.work, item)
      })))
    )
  })

/** The cache's entry for `key`: not read when `cache/` had no such file (`Session.cacheFiles`). */
export const cacheLookup = (session: Session, key: string): Effect.Effect<Cache.Lookup, never, FileSystem.FileSystem | Path.Path> =>
  session.cacheFiles.has(`${key}.json`) ? Cache.lookup(session.settings.cacheDir, key) : Effect.succeed({ _tag: "Miss" })

/** A run's files as `loadRun` read them: the run, or why it could not be read (a defect, as an exit's failure). */
type Loaded = Exit.Exit<Result.Result<Submissions.Submission, PlatformError.PlatformError>>

const load = (session: Session, entry: string): Effect.Effect<Loaded, never, FileSystem.FileSystem | Path.Path> =>
  Effect.flatMap(Path.Path, (path) => Submissions.loadRun(path.join(session.settings.folder, entry), session.edition).pipe(Effect.result, Effect.exit))

/**
 * Load, hash, score (or take from the cache) and publish one settled run. `preloaded`: its files,
 * read ahead while the run before it was scored (`worker`).
 */
export const processItem = (session: Session, item: WorkItem, preloaded?: Loaded) =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    const { folder, cacheDir, deadlineBy } = session.settings
    const t = item.track
    if (!current(session, t, item.generation)) return
    setStatus(session, t, "scoring")
    const loaded = yield* preloaded ?? (yield* load(session, t.entry))
    const busy = loaded._tag === "Failure" ? errnoOf(loaded.failure) : resourceIn(loaded.success.issues)
    if (busy !== undefined && RESOURCE_CODES.has(busy)) return yield* retryLater(session, item, busy)
    if (loaded._tag === "Failure") {
      const now = yield* signature(folder, t.entry, session.edition)
      if (!current(session, t, item.generation)) return
      if (now.sig === "absent") return yield* removeEntry(session, t, "deleted while being read")
      // changed under our feet: settle it again
      if (now.sig !== item.sig) return yield* touch(session, t.entry)
      yield* log(session, "error", `${t.entry}: cannot be read: ${Files.describe(loaded.failure)}`)
      setStatus(session, t, "failed")
      markDone(session, t)
      return
    }
    const sub = loaded.success
    const hash = hashSubmission(t.entry, sub)
    const key = Cache.key(hash, session.edition.id, session.scorer.signature)
    const same = t.published?.key === key ? t.published : undefined
    const found = same !== undefined ? ({ _tag: "Hit", outcome: same.outcome } as const) : yield* cacheLookup(session, key)
    if (found._tag === "Dropped") yield* log(session, "warn", `${t.entry}: its cached score cannot be used (${found.reason}); scoring it again`)
    let outcome = found._tag === "Hit" ? found.outcome : undefined
    // the run's signature after scoring, when taken with the scoring's writes
    let lookedAgain: { readonly sig: string } | undefined
    if (outcome !== undefined) {
      session.counters.cacheHits++
    } else {
      const started = Date.now()
      // the journal is on disk before the scorer runs: if the scorer takes the process down (out
      // of memory, a native abort), the next start knows which run did it
      const journal = `${key}.scoring` // (Cache.journalStart's file)
      const crashes = yield* Cache.journalStart(cacheDir, key, t.entry, { absent: !session.cacheFiles.has(journal) }).pipe(
        Effect.tap(() => Effect.sync(() => session.cacheFiles.add(journal))),
        Effect.catch((e) => Effect.as(log(session, "error", `${t.entry}: the scoring journal could not be written: ${Files.describe(e)}`), 0))
      )
      // A scorer that isolates runs cannot be stopped by one: an unfinished attempt means the
      // watcher itself was stopped from outside (a kill, the machine out of memory), so the run is
      // scored again (in isolation, where a run that really is the cause fails with its reason).
      // Only a scorer that is not isolated gives a run up as "crashed the scorer".
      if (crashes > 0 && session.scorer.isolated === true) {
        yield* log(session, "warn", `${t.entry}: the watcher stopped ${crashes} time${crashes === 1 ? "" : "s"} while scoring this run (from outside: runs are scored in isolation); scoring it again`)
      }
      const scored: { outcome: RunOutcome; cacheable: boolean } =
        crashes >= Cache.MAX_SCORING_ATTEMPTS && session.scorer.isolated !== true
          ? {
              outcome: {
                status: "failed",
                failure: `crashed the scorer: the watcher stopped ${crashes} times while scoring this run; it is not scored again until it changes`,
                official: [],
                errors: [],
                warnings: []
              },
              cacheable: true
            }
          : yield* scoreSafely(session, sub)
      const clear = Cache.journalClear(cacheDir, key).pipe(Effect.ignore, Effect.andThen(Effect.sync(() => session.cacheFiles.delete(journal))))
      const short = scored.outcome.status === "failed" ? resourceIn(scored.outcome.errors) : undefined
      if (short !== undefined) return yield* clear.pipe(Effect.andThen(retryLater(session, item, short)))
      const made = relativeOutcome(scored.outcome, folder, path.resolve(folder), path.sep, session.scorer.reads ?? [])
      outcome = made
      session.counters.scoredThisSession++
      // A run over its budget, or whose scorer crashed, is not cached: how long a run takes
      // depends on how busy the machine is, so it is tried again at the next start.
      const cacheable = scored.cacheable && !made.errors.some((e) => e.code === "over-budget" || e.code === "scorer-crashed")
      // The journal cleared, the score cached, the line logged and the run looked at again: each a
      // round trip to the file-system threads, done together. A stop between them leaves the run
      // scored again at the next start.
      const appendLine = yield* logged(
        session,
        made.status === "scored" ? "info" : "warn",
        `${t.entry}: ${made.status} in ${Date.now() - started} ms${made.status === "failed" ? ` (${made.failure ?? `${made.errors.length} errors`})` : ""}: ${made.official.map((o) => `${o.ranking} ${o.metric} ${o.value ?? "–"}`).join(", ")}`
      )
      const [, , , now] = yield* Effect.all(
        [
          clear,
          cacheable
            ? Cache.write(cacheDir, { key, task: session.edition.id, signature: session.scorer.signature, hash, outcome: made }).pipe(
                Effect.andThen(Effect.sync(() => session.cacheFiles.add(`${key}.json`))),
                Effect.catch((e) => log(session, "error", `${t.entry}: the score could not be cached: ${Files.describe(e)}`))
              )
            : Effect.void,
          appendLine,
          lookAgain(session, item)
        ],
        { concurrency: "unbounded" }
      )
      lookedAgain = now
    }
    // (a cached outcome may predate the rule: named relative again; one just scored already is)
    if (found._tag === "Hit") outcome = relativeOutcome(outcome, folder, path.resolve(folder), path.sep, session.scorer.reads ?? [])
    const scored = same?.scored ?? (yield* scoredRunOf(session, t, sub, outcome))
    // Publish only what still describes the folder: a newer generation is on its way, and a run
    // deleted or changed while it was scored must not come back as a ghost.
    if (!current(session, t, item.generation)) return
    const now = lookedAgain ?? (yield* lookAgain(session, item))
    if (now.sig === "absent") return yield* removeEntry(session, t, "deleted while being scored")
    if (now.sig !== item.sig) return yield* touch(session, t.entry)
    const submittedAt =
      deadlineBy === "mtime" ? item.mtime : t.published !== undefined && t.published.hash === hash ? t.published.submittedAt : Date.now()
    t.published = {
      entry: t.entry,
      kind: sub.kind,
      team: sub.meta.team,
      run: sub.meta.run,
      primary: sub.meta.primary,
      late: sub.meta.late,
      corrected: sub.meta.corrected,
      postDeadline: sub.meta.postDeadline,
      description: sub.meta.description,
      identityUnknown: sub.meta.identityUnknown,
      hash,
      submittedAt,
      outcome,
      scored,
      key,
      sig: item.sig
    }
    retries.delete(t)
    setStatus(session, t, outcome.status)
    markDone(session, t)
  })

/**
 * Runs a worker reads ahead of the one it scores: a run's files are read (a round trip to the
 * file-system threads for each call) while the run before it is scored, in the order they were
 * queued. Each is a run in memory: two at most beside the one being scored.
 */
const READ_AHEAD = 2

/** A worker: takes settled runs off the queue forever; a defect fails the run, not the worker. */
export const worker = (session: Session): Effect.Effect<never, never, FileSystem.FileSystem | Path.Path> =>
  Stream.fromQueue(session.work).pipe(
    // (a run that moved on meanwhile is not read: processItem drops it)
    Stream.mapEffect((item) => Effect.map(current(session, item.track, item.generation) ? load(session, item.track.entry) : Effect.undefined, (loaded) => ({ item, loaded })), {
      concurrency: READ_AHEAD
    }),
    Stream.runForEach(({ item, loaded }) =>
      processItem(session, item, loaded).pipe(
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.gen(function* () {
                yield* log(session, "error", `${item.track.entry}: ${Cause.pretty(cause).split("\n")[0]}`)
                setStatus(session, item.track, "failed")
                markDone(session, item.track)
              })
        )
      )
    ),
    // (the queue is never shut down: a worker ends only when interrupted)
    Effect.andThen(Effect.never)
  )
