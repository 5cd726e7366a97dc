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
import { hashSubmission, runJsonIn, seenIn, signature } from "./files.js"
import { forget, lookupBatch, writeBatch } from "./entries.js"
import { clearJournal, startJournal } from "./journal.js"
import { removeEntry, touch } from "./runs.js"
import { appendLog, log, logLine, markDone, setStatus } from "./session.js"
import type { Published, Session, Track, WorkItem } from "./session.js"

/** An outcome of the scorer, and whether it may be cached. */
interface Scored {
  readonly outcome: RunOutcome
  readonly cacheable: boolean
}

/** A defect of the scorer as a failed outcome that is not cached. */
const crashed = (cause: Cause.Cause<unknown>): Scored => ({
  outcome: { status: "failed", failure: `the scorer crashed: ${Cause.pretty(cause).split("\n")[0] ?? "unknown error"}`, official: [], errors: [], warnings: [] },
  cacheable: false
})

/** Score a run; a defect in the scorer is a failed outcome that is not cached. */
const scoreSafely = (session: Session, sub: Submissions.Submission) =>
  session.scorer.score(sub).pipe(
    Effect.exit,
    Effect.map((exit): Scored => (Exit.isSuccess(exit) ? { outcome: exit.value, cacheable: true } : crashed(exit.cause)))
  )

/** Score runs in one call (`scoreBatch`, else one by one); a defect fails every run of the call, uncached. */
const scoreBatchSafely = (session: Session, subs: ReadonlyArray<Submissions.Submission>): Effect.Effect<ReadonlyArray<Scored>> => {
  const { scoreBatch } = session.scorer
  if (scoreBatch === undefined) return Effect.forEach(subs, (sub) => scoreSafely(session, sub))
  return scoreBatch(subs).pipe(
    Effect.exit,
    Effect.map((exit) => subs.map((_, i): Scored => (Exit.isSuccess(exit) ? { outcome: exit.value[i], cacheable: true } : crashed(exit.cause))))
  )
}

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

/**
 * The cache's entry for `key`: the newest batch file's that holds it, else its own file (a run
 * scored alone, or by an earlier version), not read when `cache/` had no such file (`Session.cacheFiles`).
 */
export const cacheLookup = (session: Session, key: string): Effect.Effect<Cache.Lookup, never, FileSystem.FileSystem | Path.Path> =>
  Effect.flatMap(lookupBatch(session.settings.cacheDir, session.batches, key), (found) =>
    found !== undefined
      ? Effect.succeed(found)
      : session.cacheFiles.has(`${key}.json`)
        ? Cache.lookup(session.settings.cacheDir, key)
        : Effect.succeed<Cache.Lookup>({ _tag: "Miss" })
  )

/** A run's files as `loadRun` read them: the run, or why it could not be read (a defect, as an exit's failure). */
type Loaded = Exit.Exit<Result.Result<Submissions.Submission, PlatformError.PlatformError>>

const load = (session: Session, item: WorkItem): Effect.Effect<Loaded, never, FileSystem.FileSystem | Path.Path> =>
  Effect.flatMap(Path.Path, (path) => {
    const entry = item.track.entry
    // (with events on, only the run.json files its settling found: `runJsonIn`)
    const options = session.settings.useEvents ? { runJsonBeside: runJsonIn(item.sig, entry, session.edition) } : {}
    return Submissions.loadRun(path.join(session.settings.folder, entry), session.edition, options).pipe(Effect.result, Effect.exit)
  })

/** A loaded run whose outcome is not yet known: hashed, and looked for in the cache. */
interface Begun {
  readonly item: WorkItem
  readonly sub: Submissions.Submission
  readonly hash: string
  readonly key: string
  /** the run as published, when it was published with the same key */
  readonly same: Published | undefined
  readonly found: Cache.Lookup
}

/**
 * The first part of a settled run's turn: its status, its files (read ahead, or read now), its hash
 * and the cache's entry. Undefined when the run's turn ends here (it moved on, could not be read,
 * or is read again later).
 */
const begin = (session: Session, item: WorkItem, preloaded?: Loaded) =>
  Effect.gen(function* () {
    const { folder } = session.settings
    const t = item.track
    if (!current(session, t, item.generation)) return undefined
    setStatus(session, t, "scoring")
    const loaded = yield* preloaded ?? (yield* load(session, item))
    const busy = loaded._tag === "Failure" ? errnoOf(loaded.failure) : resourceIn(loaded.success.issues)
    if (busy !== undefined && RESOURCE_CODES.has(busy)) return yield* Effect.as(retryLater(session, item, busy), undefined)
    if (loaded._tag === "Failure") {
      const now = yield* signature(folder, t.entry, session.edition)
      if (!current(session, t, item.generation)) return undefined
      if (now.sig === "absent") return yield* Effect.as(removeEntry(session, t, "deleted while being read"), undefined)
      // changed under our feet: settle it again
      if (now.sig !== item.sig) return yield* Effect.as(touch(session, t.entry), undefined)
      yield* log(session, "error", `${t.entry}: cannot be read: ${Files.describe(loaded.failure)}`)
      setStatus(session, t, "failed")
      markDone(session, t)
      return undefined
    }
    const sub = loaded.success
    const hash = hashSubmission(t.entry, sub)
    const key = Cache.key(hash, session.edition.id, session.scorer.signature)
    const same = t.published?.key === key ? t.published : undefined
    const found: Cache.Lookup = same !== undefined ? { _tag: "Hit", outcome: same.outcome } : yield* cacheLookup(session, key)
    if (found._tag === "Dropped") yield* log(session, "warn", `${t.entry}: its cached score cannot be used (${found.reason}); scoring it again`)
    return { item, sub, hash, key, same, found } satisfies Begun
  })

/** The outcome of a run the watcher stopped while scoring it too often (a scorer that is not isolated): not scored again until it changes. */
const givenUp = (crashes: number) => ({
  outcome: {
    status: "failed",
    failure: `crashed the scorer: the watcher stopped ${crashes} times while scoring this run; it is not scored again until it changes`,
    official: [],
    errors: [],
    warnings: []
  } satisfies RunOutcome,
  cacheable: true
})

const gaveUp = (session: Session, crashes: number) => crashes >= Cache.MAX_SCORING_ATTEMPTS && session.scorer.isolated !== true

/**
 * A run just scored: its outcome named relative to the folder, cached (unless over budget or
 * crashed), its line made and the run looked at again, together; with `clear` (a run scored alone:
 * its journal cleared) and, unless `batched`, its line appended and its entry cached in its own
 * file (a batch appends its runs' lines at once, and writes their entries in one file: `entry`).
 * Undefined when the process was short of a resource (the run is read again later).
 */
const scoredNow = (session: Session, b: Begun, scored: Scored, started: number, clear: Effect.Effect<void, never, FileSystem.FileSystem | Path.Path>, batched: boolean) =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    const { folder, cacheDir } = session.settings
    const t = b.item.track
    const short = scored.outcome.status === "failed" ? resourceIn(scored.outcome.errors) : undefined
    if (short !== undefined) return yield* clear.pipe(Effect.andThen(retryLater(session, b.item, short)), Effect.as(undefined))
    const made = relativeOutcome(scored.outcome, folder, path.resolve(folder), path.sep, session.scorer.reads ?? [])
    session.counters.scoredThisSession++
    // A run over its budget, or whose scorer crashed, is not cached: how long a run takes
    // depends on how busy the machine is, so it is tried again at the next start.
    const cacheable = scored.cacheable && !made.errors.some((e) => e.code === "over-budget" || e.code === "scorer-crashed")
    // The journal cleared, the score cached, the line logged and the run looked at again: each a
    // round trip to the file-system threads, done together. A stop between them leaves the run
    // scored again at the next start.
    const line = yield* logLine(
      made.status === "scored" ? "info" : "warn",
      `${t.entry}: ${made.status} in ${Date.now() - started} ms${made.status === "failed" ? ` (${made.failure ?? `${made.errors.length} errors`})` : ""}: ${made.official.map((o) => `${o.ranking} ${o.metric} ${o.value ?? "–"}`).join(", ")}`
    )
    const entry: Cache.CacheFile | undefined = cacheable ? { key: b.key, task: session.edition.id, signature: session.scorer.signature, hash: b.hash, outcome: made } : undefined
    const [, , , now] = yield* Effect.all(
      [
        clear,
        entry !== undefined && !batched
          ? Cache.write(cacheDir, entry).pipe(
              Effect.andThen(Effect.sync(() => session.cacheFiles.add(`${b.key}.json`))),
              // (its own file is now newer than a batch file's entry of the key)
              Effect.andThen(forget(cacheDir, session.batches, b.key)),
              Effect.catch((e) => log(session, "error", `${t.entry}: the score could not be cached: ${Files.describe(e)}`))
            )
          : Effect.void,
        batched ? Effect.void : appendLog(session, line),
        lookAgain(session, b.item)
      ],
      { concurrency: "unbounded" }
    )
    return { outcome: made, lookedAgain: now, line, entry }
  })

/**
 * The last part: publish the run, unless it moved on meanwhile (a newer generation is on its way,
 * and a run deleted or changed while it was scored must not come back as a ghost). `lookedAgain`:
 * its signature after scoring, when taken with the scoring's writes.
 */
const publishRun = (session: Session, b: Begun, outcome: RunOutcome, lookedAgain?: { readonly sig: string }) =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    const { folder, deadlineBy } = session.settings
    const { item, sub, hash } = b
    const t = item.track
    if (b.found._tag === "Hit") {
      session.counters.cacheHits++
      // (a cached outcome may predate the rule: named relative again; one just scored already is)
      outcome = relativeOutcome(outcome, folder, path.resolve(folder), path.sep, session.scorer.reads ?? [])
    }
    const scored = b.same?.scored ?? (yield* scoredRunOf(session, t, sub, outcome))
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
      key: b.key,
      sig: item.sig
    }
    retries.delete(t)
    setStatus(session, t, outcome.status)
    markDone(session, t)
  })

/**
 * Load, hash, score (or take from the cache) and publish one settled run. `preloaded`: its files,
 * read ahead while the run before it was scored (`worker`).
 */
export const processItem = (session: Session, item: WorkItem, preloaded?: Loaded) =>
  Effect.gen(function* () {
    const b = yield* begin(session, item, preloaded)
    if (b === undefined) return
    if (b.found._tag === "Hit") return yield* publishRun(session, b, b.found.outcome)
    const started = Date.now()
    const { id, crashes: [crashes] } = yield* startJournal(session, [{ key: b.key, entry: b.item.track.entry }])
    const scored = gaveUp(session, crashes) ? givenUp(crashes) : yield* scoreSafely(session, b.sub)
    const made = yield* scoredNow(session, b, scored, started, clearJournal(session, id), false)
    if (made !== undefined) yield* publishRun(session, b, made.outcome, made.lookedAgain)
  })

/** A run's turn ended by a defect (not an interruption): the run fails, the worker goes on. */
const failedBy = (session: Session, item: WorkItem) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.gen(function* () {
            yield* log(session, "error", `${item.track.entry}: ${Cause.pretty(cause).split("\n")[0]}`)
            setStatus(session, item.track, "failed")
            markDone(session, item.track)
            return undefined
          })
    )
  )

/** Runs of a batch whose lines are made and which are looked at again at once (their calls overlap). */
const FINISHED_AT_ONCE = 8

/**
 * Settled runs scored together (`ScorerShape.scoreBatch`: the engine checks small runs under one
 * watchdog per batch, not one per run): each run loaded, hashed and looked for in the cache; every
 * run not in it (unless given up) scored in one call; then each published on its own, as
 * `processItem` does. One journal listing the batch's runs is on disk before the batch is scored.
 */
const processBatch = (session: Session, batch: ReadonlyArray<{ readonly item: WorkItem; readonly loaded: Loaded | undefined }>) =>
  Effect.gen(function* () {
    const begun: Array<Begun> = []
    for (const { item, loaded } of batch) {
      const b = yield* failedBy(session, item)(begin(session, item, loaded))
      if (b === undefined) continue
      if (b.found._tag === "Hit") yield* failedBy(session, item)(publishRun(session, b, b.found.outcome))
      else begun.push(b)
    }
    if (begun.length === 0) return
    const started = Date.now()
    const journal = yield* startJournal(session, begun.map((b) => ({ key: b.key, entry: b.item.track.entry })))
    const misses = begun.map((b, i) => ({ b, crashes: journal.crashes[i] }))
    const asked = misses.filter((m) => !gaveUp(session, m.crashes))
    const outcomes = yield* scoreBatchSafely(session, asked.map((m) => m.b.sub))
    const made = yield* Effect.forEach(
      misses,
      (m) => {
        const k = asked.indexOf(m)
        return failedBy(session, m.b.item)(scoredNow(session, m.b, k < 0 ? givenUp(m.crashes) : outcomes[k], started, Effect.void, true))
      },
      { concurrency: FINISHED_AT_ONCE }
    )
    // the runs' lines for watch.log, appended in one write (in the batch's order) before any of
    // them is published (a stop after the last one is published would cut what follows); their
    // entries cached in one file, then the journal cleared (a stop between them leaves the runs
    // cached, which the next start's journals leave out, as when each had its own file)
    const entries = made.flatMap((m) => (m?.entry !== undefined ? [m.entry] : []))
    const cached = entries.length === 0
      ? Effect.void
      : writeBatch(session.settings.cacheDir, session.batches, entries).pipe(
          Effect.catch((e) => Effect.forEach(misses, (m, i) => (made[i]?.entry !== undefined ? log(session, "error", `${m.b.item.track.entry}: the score could not be cached: ${Files.describe(e)}`) : Effect.void), { discard: true }))
        )
    yield* Effect.all([appendLog(session, made.map((m) => m?.line ?? "").join("")), cached.pipe(Effect.andThen(clearJournal(session, journal.id)))], { concurrency: "unbounded" })
    for (const [i, m] of misses.entries()) {
      const now = made[i]
      if (now !== undefined) yield* failedBy(session, m.b.item)(publishRun(session, m.b, now.outcome, now.lookedAgain))
    }
  })

/**
 * Runs a worker reads ahead of the one it scores: a run's files are read (a round trip to the
 * file-system threads for each call) while the run before it is scored, in the order they were
 * queued. Each is a run in memory: two at most beside the one being scored.
 */
const READ_AHEAD = 2

/**
 * Runs a batch holds at most (`batchWorker`), and bytes of their files at most (unless one run is
 * larger): what the worker keeps in memory at once.
 */
const BATCH_RUNS = 64
const BATCH_BYTES = 16 * 2 ** 20

/** Runs of a batch read at once (their file-system calls overlap). */
const LOADS_AT_ONCE = 4

const bytesOf = (loaded: Loaded | undefined): number =>
  loaded !== undefined && loaded._tag === "Success" && loaded.value._tag === "Success" ? loaded.value.success.files.reduce((sum, f) => sum + f.bytes.length, 0) : 0

/**
 * A worker of a scorer that scores runs together (`scoreBatch`): takes the runs settled so far (the
 * first scan: the folder's runs, as they settle, up to a batch), reads them a few at a time and
 * scores them in one call. A run taken but not read (the batch full) waits for the next batch.
 */
const batchWorker = (session: Session): Effect.Effect<never, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const waiting: Array<WorkItem> = []
    while (true) {
      if (waiting.length === 0) waiting.push(yield* Queue.take(session.work))
      while (waiting.length < BATCH_RUNS) {
        const more = yield* Queue.poll(session.work)
        if (more._tag === "None") break
        waiting.push(more.value)
      }
      const batch: Array<{ readonly item: WorkItem; readonly loaded: Loaded | undefined }> = []
      let bytes = 0
      while (waiting.length > 0 && bytes < BATCH_BYTES) {
        // (a run that moved on meanwhile is not read: `begin` drops it)
        const read = yield* Effect.forEach(
          waiting.splice(0, LOADS_AT_ONCE),
          (item) => Effect.map(current(session, item.track, item.generation) ? load(session, item) : Effect.undefined, (loaded) => ({ item, loaded })),
          { concurrency: LOADS_AT_ONCE }
        )
        for (const r of read) bytes += bytesOf(r.loaded)
        batch.push(...read)
      }
      yield* processBatch(session, batch)
    }
  })

/**
 * A worker: takes settled runs off the queue forever; a defect fails the run, not the worker. A
 * scorer that scores runs together (`scoreBatch`) gets them in batches (`batchWorker`).
 */
export const worker = (session: Session): Effect.Effect<never, never, FileSystem.FileSystem | Path.Path> =>
  session.scorer.scoreBatch !== undefined
    ? batchWorker(session)
    : Stream.fromQueue(session.work).pipe(
        // (a run that moved on meanwhile is not read: processItem drops it)
        Stream.mapEffect((item) => Effect.map(current(session, item.track, item.generation) ? load(session, item) : Effect.undefined, (loaded) => ({ item, loaded })), {
          concurrency: READ_AHEAD
        }),
        Stream.runForEach(({ item, loaded }) => failedBy(session, item)(processItem(session, item, loaded))),
        // (the queue is never shut down: a worker ends only when interrupted)
        Effect.andThen(Effect.never)
      )
