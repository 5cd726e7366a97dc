/**
 * The live leaderboard: watch a submissions folder, score what changed, keep the leaderboard in an
 * output folder current, and survive restarts.
 *
 * How it works (details and file formats in docs/watch.md): every top-level entry of the folder
 * is a run. An event inside an entry, or a difference the periodic rescan finds, restarts its
 * settle fiber (a `FiberMap` keyed by entry: a debounce), which waits until the run's files are
 * unchanged over a debounce window (or, on Linux, no process holds it open for writing), then
 * queues it. Workers hash the run and take its outcome from the cache (key: hash + task + scorer
 * signature) or score and cache it; before publishing they check the run has not changed since,
 * so a run deleted or changed mid-scoring leaves no ghost. A publisher writes the boards, status
 * and state atomically, coalescing bursts. Parts: `internal/runs`, `worker`, `publish`.
 *
 * @since 0.1.0
 */
import { Uncertainty } from "@stseval/scoring"
import { Files } from "@stseval/formats"
import type { Registry } from "@stseval/formats"
import type { Config } from "@stseval/tables"
import { Deferred, Effect, Exit, FiberMap, FileSystem, Latch, Path, Queue, Schema, Stream } from "effect"
import { isTempFile } from "./internal/files.js"
import { readBatches } from "./internal/entries.js"
import { readJournals } from "./internal/journal.js"
import * as Lock from "./internal/lock.js"
import { gapAfter, OUTPUT_RETRY_MS, publisher, snapshot } from "./internal/publish.js"
import { isRunName, listAll, onEvent, rescan, touch } from "./internal/runs.js"
import { files, log, requestPublish } from "./internal/session.js"
import type { Session, Settings, Track, WorkItem } from "./internal/session.js"
import { cacheLookup, worker } from "./internal/worker.js"
import type * as Leaderboard from "./Leaderboard.js"
import { Renderer } from "./BoardPage.js"
import { Scorer } from "./Scorer.js"
import type { ScorerShape } from "./Scorer.js"
import * as State from "./State.js"

/**
 * What `watch` watches and how: the submissions and output folders, once or continuously, the
 * phase (hidden or not), the deadline and run limit, the timings, and intervals and marks.
 *
 * @since 0.1.0
 */
export interface WatchOptions {
  /** the submissions folder */
  readonly folder: string
  /** the output folder (created if needed); it also holds the watcher's state and cache */
  readonly out: string
  /** score what is there, write the outputs, and return (for cron and CI) */
  readonly once?: boolean | undefined
  /** hidden phase: `leaderboard.public.*` carry validation status only */
  readonly hidden?: boolean | undefined
  /** runs submitted after this instant are flagged `post-deadline` */
  readonly deadline?: Date | string | number | undefined
  /** the submission time of a run: `mtime` (default, newest mtime of its files) or `first-seen` by the watcher */
  readonly deadlineBy?: "mtime" | "first-seen" | undefined
  /** rank primary runs only (default false) */
  readonly primaryOnly?: boolean | undefined
  /** runs per team (default: the edition's `runLimit`) */
  readonly runLimit?: number | undefined
  /** quiet period per run in ms before it is scored (default 200) */
  readonly debounce?: number | undefined
  /**
   * a run is scored once its newest mtime is this many ms old (default 1500; 0 = off), not half-copied;
   * not waited for a file no process holds open for writing, where the platform says (Linux)
   * @since 0.3.0
   */
  readonly settle?: number | undefined
  /**
   * full rescan every this many ms, a safety net for missed events (0 = off); default 2000 without
   * file-system events (`events: false`, or once they stopped), 30000 while they work
   * (an idle rescan stats every run: at 500 runs every 2 s, about 4 % of a core)
   */
  readonly rescanInterval?: number | undefined
  /** least ms between two writes of the outputs, to coalesce bursts (default 50) */
  readonly publishInterval?: number | undefined
  /**
   * an open `leaderboard*.html` reloads within 2 s of a change (it polls a version file), and every
   * this many seconds for a browser without scripts (default 30; 0 = not by time)
   */
  readonly refresh?: number | undefined
  /** use file-system events (default true); false = rescan only */
  readonly events?: boolean | undefined
  /** runs scored at the same time (default 1) */
  readonly concurrency?: number | undefined
  /** called after each leaderboard write (benchmarks, embedding) */
  readonly onPublish?: ((board: Leaderboard.Leaderboard) => void) | undefined
  /**
   * Intervals on every figure and rank (`--ci`), as `rank --ci` gives them: a level (95 or 0.95)
   * or a report config's `ci`. Needs a `Scorer` with `scoreRun`.
   */
  readonly ci?: number | Config.CiConfig | undefined
  /**
   * The tied-with-best marks of every figure, as `stseval report` prints them: default true with a
   * `Scorer` that gives `scoreRun` (aligned scores, then kept in memory). @since 0.3.0
   */
  readonly marks?: boolean | undefined
}

/**
 * What `watch` returns when it stops: runs seen, scored, failed and ranked, and how many came from
 * the cache.
 *
 * @since 0.1.0
 */
export interface WatchSummary {
  readonly runs: number
  readonly scored: number
  readonly failed: number
  readonly ranked: number
  /** runs the engine scored in this session (the others came from the cache) */
  readonly scoredThisSession: number
  readonly cacheHits: number
}

/**
 * @example
 * ```ts
 * import { ScoringAdapter, Watcher } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * const watched = Watcher.watch({ folder: "submissions", out: "board", once: true }).pipe(
 *   // outputs that could not be written (disk full) are not a usage problem: say which
 *   Effect.catchTag("WatchError", (e: Watcher.WatchError) => Effect.fail(e.output === true ? `cannot write: ${e.message}` : e.message)),
 *   Effect.provide(ScoringAdapter.layer({ task: "sick2014", gold: "SICK_test_annotated.txt" }))
 * )
 * ```
 * @since 0.1.0
 */
export class WatchError extends Schema.TaggedError<WatchError>()("WatchError", {
  message: Schema.String,
  /** the outputs could not be written (the message gives the OS's reason), not a usage problem */
  output: Schema.optionalKey(Schema.Boolean)
}) {}

/**
 * Output file names.
 *
 * @example
 * ```ts
 * import * as path from "node:path"
 * import { Watcher } from "@stseval/leaderboard"
 *
 * const statusFile = path.join("board", Watcher.files.status) // board/status.json
 * ```
 * @since 0.1.0
 */
export { files }

/**
 * `status.json`'s types (see `Status`).
 *
 * @since 0.1.0
 */
export type { RunStatus, Status, StatusRun } from "./Status.js"

const parseDeadline = (d: WatchOptions["deadline"]): Effect.Effect<number | undefined, WatchError> => {
  if (d === undefined) return Effect.succeed(undefined)
  const ms = d instanceof Date ? d.getTime() : typeof d === "number" ? d : Date.parse(d)
  return Number.isFinite(ms) ? Effect.succeed(ms) : Effect.fail(new WatchError({ message: `the deadline "${String(d)}" is not a date (use ISO 8601, e.g. 2026-11-22T23:59:00Z)` }))
}

/**
 * `ci` resolved: the level as a fraction, the bootstrap's settings checked by the mapping itself
 * on no runs (one place says what a resample count or seed may be).
 */
const parseCi = (ci: WatchOptions["ci"], edition: Registry.TaskEdition): Effect.Effect<Settings["ci"], WatchError> => {
  if (ci === undefined) return Effect.succeed(undefined)
  const given = typeof ci === "number" ? { level: ci } : ci
  const level = Uncertainty.parseLevel(given.level)
  if (level === undefined) return Effect.fail(new WatchError({ message: `ci: expected ${Uncertainty.levelExpected}, found ${given.level}` }))
  const settings = { level, resamples: given.resamples ?? Uncertainty.defaults.resamples, seed: given.seed ?? Uncertainty.defaults.seed }
  // resamples the machine cannot hold for a single run: refused before anything starts (for more
  // runs, the board is then published without intervals, with a warning: see publish's snapshot)
  const figures = Uncertainty.figuresOf({ edition, runs: [undefined] })
  // (first: the check of the settings below draws the resamples once, seconds for millions)
  const beyond = Number.isSafeInteger(settings.resamples) ? Uncertainty.beyondMemory(settings.resamples, figures) : undefined
  if (beyond !== undefined) {
    return Effect.fail(new WatchError({ message: `ci: ${Uncertainty.describeBeyond(settings.resamples, figures, beyond)}` }))
  }
  const dry = Uncertainty.compute({ edition, runs: [] }, settings)
  return Uncertainty.isError(dry) ? Effect.fail(new WatchError({ message: `ci: ${dry.field}: expected ${dry.expected}, found ${dry.found}` })) : Effect.succeed(settings)
}

/**
 * The rescan's interval (ms) by default: without file-system events it is how changes are found
 * (`POLL_RESCAN_MS`); with them, a rare safety net for a missed event (`EVENTS_RESCAN_MS`). A
 * folder written from other machines over a network file system gives no events: there, set
 * `rescanInterval` (`--rescan 2000`) or turn events off.
 */
const POLL_RESCAN_MS = 2000
const EVENTS_RESCAN_MS = 30_000

/** Check the folders, drop temp files a killed writer left, and resolve the options. */
const prepare = (options: WatchOptions, scorer: ScorerShape) =>
  Effect.gen(function* () {
    const edition = scorer.edition
    // settings first: a mistake in them leaves the output folder untouched
    const ci = yield* parseCi(options.ci, edition)
    if (ci !== undefined && scorer.scoreRun === undefined) {
      return yield* new WatchError({ message: "ci: this scorer gives no aligned scores (ScorerShape.scoreRun), so no intervals" })
    }
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const folder = path.resolve(options.folder)
    const out = path.resolve(options.out)
    const cacheDir = path.join(out, files.cache)
    const fail = (message: string) => (e: unknown) => new WatchError({ message: `${message}: ${Files.describe(e)}` })
    const folderInfo = yield* fs.stat(folder).pipe(Effect.mapError(fail(`cannot read the submissions folder ${folder}`)))
    if (folderInfo.type !== "Directory") return yield* new WatchError({ message: `${folder} is not a folder` })
    // the outputs written into the submissions folder would be scored as runs, and each score
    // would write them again: a watcher that never settles (and `--once` that never ends)
    const realFolder = yield* fs.realPath(folder).pipe(Effect.orElseSucceed(() => folder))
    const realOut = yield* fs.realPath(out).pipe(Effect.orElseSucceed(() => out))
    if (realOut === realFolder) {
      return yield* new WatchError({
        message: `the output folder ${out} is the submissions folder${realFolder !== folder || realOut !== out ? ` (${realFolder})` : ""}: its outputs would be scored as runs; choose another output folder (e.g. ${folder}-board)`
      })
    }
    yield* fs.makeDirectory(cacheDir, { recursive: true }).pipe(Effect.mapError(fail(`cannot create the output folder ${out}`)))
    // one writer per output folder; taken before the temp files are dropped (they may be its)
    const lock = yield* Lock.acquire(out)
    if (lock._tag === "Held") {
      return yield* new WatchError({
        message: `another watcher (pid ${lock.pid} on ${lock.host}, since ${lock.startedAt}) writes to ${out}; stop it or choose another output folder (remove ${path.join(out, files.lock)} if that watcher is gone)`
      })
    }
    if (lock._tag === "Failed") return yield* new WatchError({ message: `cannot lock the output folder ${out}: ${lock.reason}`, output: true })
    // Temp files of a writer killed between write and rename: never complete, safe to drop.
    const cacheFiles = new Set<string>()
    for (const dir of [out, cacheDir]) {
      for (const name of yield* fs.readDirectory(dir).pipe(Effect.orElseSucceed(() => [] as Array<string>))) {
        if (isTempFile(name)) yield* fs.remove(path.join(dir, name)).pipe(Effect.ignore)
        else if (dir === cacheDir) cacheFiles.add(name)
      }
    }
    // An output folder inside the submissions folder is not a run.
    // (as given, or through links: `board -> subs/board`)
    const entryOf = (from: string, to: string) => {
      const rel = path.relative(from, to)
      return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(/[\\/]/)[0] : undefined
    }
    const outEntry = entryOf(folder, out) ?? entryOf(realFolder, yield* fs.realPath(out).pipe(Effect.orElseSucceed(() => out)))
    const once = options.once ?? false
    const settings = {
      folder,
      out,
      cacheDir,
      once,
      hidden: options.hidden ?? false,
      debounce: Math.max(0, options.debounce ?? 200),
      settle: Math.max(0, options.settle ?? 1500),
      rescanInterval: options.rescanInterval ?? POLL_RESCAN_MS,
      eventsRescanInterval: options.rescanInterval ?? EVENTS_RESCAN_MS,
      publishInterval: Math.max(0, options.publishInterval ?? 50),
      refresh: Math.max(0, Math.round(options.refresh ?? 30)),
      deadlineBy: options.deadlineBy ?? "mtime",
      runLimit: options.runLimit ?? edition.runLimit,
      deadline: yield* parseDeadline(options.deadline),
      primaryOnly: options.primaryOnly,
      useEvents: !once && (options.events ?? true),
      concurrency: Math.max(1, options.concurrency ?? 1),
      outEntry,
      onPublish: options.onPublish,
      ci,
      marks: options.marks !== false && scorer.scoreRun !== undefined
    } satisfies Settings
    return { settings, cacheFiles }
  })

/**
 * Restore the last state: published runs reappear at once (from the cache), then every run is
 * re-hashed. A state of another task, gold or engine is not used, not even for a moment.
 */
const restore = (session: Session) =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    // read with the checks of a run (a regular file, capped): a state.json that cannot be used is
    // a warning and a fresh start, never a start that dies on it
    const read = yield* Files.readFile(path.join(session.settings.out, files.state), { maxBytes: State.MAX_BYTES, what: files.state }).pipe(Effect.result)
    if (read._tag === "Failure") {
      if (read.failure.reason === "missing") return
      return yield* log(session, "warn", `${read.failure.message}; starting afresh (cached scores are still used)`)
    }
    const decoded = State.decode(new TextDecoder().decode(read.success))
    if (decoded._tag === "Invalid") {
      return yield* log(session, "warn", `${files.state} cannot be used (${decoded.reason}); starting afresh (cached scores are still used)`)
    }
    const state = decoded.state
    if (state.task !== session.edition.id || state.signature !== session.scorer.signature) {
      return yield* log(session, "info", `${files.state} was written for another task, gold or engine version; every run is scored afresh`)
    }
    for (const [entry, s] of Object.entries(state.runs)) {
      const found = yield* cacheLookup(session, s.key)
      // an entry an earlier version left outside today's bounds: the run is scored again
      if (found._tag === "Dropped") yield* log(session, "warn", `${entry}: its cached score cannot be used (${found.reason}); scoring it again`)
      const outcome = found._tag === "Hit" ? found.outcome : undefined
      const track: Track = { entry, generation: 0, status: "queued", pending: false, settledSig: s.sig, published: undefined, firstSeen: s.firstSeen, updatedAt: session.startedAt }
      if (outcome !== undefined) {
        track.published = {
          entry,
          kind: s.kind,
          team: s.team,
          run: s.run ?? undefined,
          primary: s.primary,
          late: s.late,
          corrected: s.corrected,
          postDeadline: s.postDeadline,
          description: s.description,
          identityUnknown: s.identityUnknown,
          hash: s.hash,
          submittedAt: s.submittedAt,
          outcome,
          key: s.key,
          sig: s.sig
        }
        track.status = outcome.status
      }
      session.tracks.set(entry, track)
    }
    yield* log(session, "info", `restored ${session.tracks.size} runs from ${files.state}`)
  })

const summaryOf = (session: Session): WatchSummary => {
  const board = snapshot(session)
  const { scoredThisSession, cacheHits } = session.counters
  return { runs: board.counts.runs, scored: board.counts.scored, failed: board.counts.failed, ranked: board.counts.ranked, scoredThisSession, cacheHits }
}

/**
 * Watch `options.folder` and keep the leaderboard in `options.out` current, until interrupted
 * (the write in progress finishes, the state is flushed) or, with `once`, everything is scored.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { ScoringAdapter, Watcher } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * // score what is there, write the board and exit; without `once` it runs until interrupted
 * const summary = await Effect.runPromise(
 *   Watcher.watch({ folder: "submissions", out: "board", once: true }).pipe(
 *     Effect.provide(ScoringAdapter.layerWithReport({ task: "sick2014", gold: "SICK_test_annotated.txt" })),
 *     Effect.provide(NodeServices.layer)
 *   )
 * )
 * ```
 * @since 0.1.0
 */
export const watch = (
  options: WatchOptions
): Effect.Effect<WatchSummary, WatchError, Scorer | FileSystem.FileSystem | Path.Path> =>
  Effect.scoped(
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const scorer = yield* Scorer
      const { settings, cacheFiles } = yield* prepare(options, scorer)
      const batches = yield* readBatches(settings.cacheDir, cacheFiles)
      const session: Session = {
        settings,
        cacheFiles,
        batches,
        journals: yield* readJournals(settings.cacheDir, cacheFiles, batches.keys),
        edition: scorer.edition,
        scorer,
        renderer: yield* Renderer,
        tracks: new Map(),
        counters: { pending: 0, scoredThisSession: 0, cacheHits: 0 },
        phase: settings.once ? "once" : "starting",
        outputFailure: undefined,
        startedAt: Date.now(),
        idle: yield* Latch.make(true),
        wake: yield* Queue.sliding<void>(1),
        work: yield* Queue.unbounded<WorkItem>(),
        debouncers: yield* FiberMap.make<string>(),
        runWatchers: yield* FiberMap.make<string>(),
        notRuns: new Map(),
        intervalsMemo: undefined,
        eventsLive: settings.useEvents
      }
      yield* restore(session)
      const publish = yield* publisher(session)
      const { folder, out, once, rescanInterval, publishInterval, useEvents } = settings

      const main = Effect.gen(function* () {
        yield* log(session, "info", `watching ${folder} for ${session.edition.id} runs; outputs in ${out}${once ? " (once)" : ""}`)
        // (the gap after each write: `gapAfter`)
        const paced = Effect.gen(function* () {
          yield* Queue.take(session.wake)
          const started = Date.now()
          const busy = session.counters.pending > 0
          yield* publish
          const gap = gapAfter(Date.now() - started, busy, publishInterval)
          // the gap of a burst ends with the burst: the board of its last run (the first scan's
          // whole board) is written at once, not after a gap meant to pace the writes in between
          yield* busy && gap > publishInterval
            ? Effect.raceFirst(Effect.sleep(gap), session.idle.await.pipe(Effect.andThen(Effect.sleep(publishInterval))))
            : Effect.sleep(gap)
        })
        yield* Effect.forkScoped(Effect.forever(paced))
        // outputs that could not be written (a full disk) are tried again on a timer: the board
        // catches up when space returns, not only at the next change
        if (!once) {
          const retry = Effect.sync(() => session.outputFailure !== undefined && requestPublish(session))
          yield* Effect.forkScoped(Effect.forever(Effect.sleep(OUTPUT_RETRY_MS).pipe(Effect.andThen(retry))))
        }
        for (let i = 0; i < settings.concurrency; i++) yield* Effect.forkScoped(worker(session))
        if (useEvents) {
          const ready = yield* Deferred.make<void>()
          yield* Effect.forkScoped(
            fs.watch(folder, { recursive: false, onReady: () => Deferred.doneUnsafe(ready, Exit.void) }).pipe(
              Stream.runForEach((event) => onEvent(session, event.path)),
              Effect.catch((e) =>
                Effect.suspend(() => {
                  session.eventsLive = false
                  return log(session, "warn", `file-system events stopped (${e.message}); relying on the rescan every ${rescanInterval} ms`)
                })
              ),
              Effect.ensuring(Deferred.succeed(ready, undefined))
            )
          )
          // scan only once the watcher is installed, so nothing lands unseen in between
          yield* Deferred.await(ready).pipe(Effect.timeoutOption(2000))
        }
        const all = yield* listAll(session)
        const listed = new Set(all)
        for (const name of new Set([...all.filter((n) => isRunName(session, n)), ...session.tracks.keys()])) yield* touch(session, name, listed)
        requestPublish(session)
        if (once) {
          yield* session.idle.await
          return summaryOf(session)
        }
        if (rescanInterval > 0) {
          // woken at the polling interval, but while events work a rescan only every
          // `eventsRescanInterval`: the fallback applies as soon as the events stop
          let last = Date.now()
          const tick = Effect.suspend(() => {
            if (session.eventsLive && Date.now() - last < settings.eventsRescanInterval) return Effect.void
            last = Date.now()
            return rescan(session)
          })
          yield* Effect.forkScoped(Effect.forever(Effect.sleep(rescanInterval).pipe(Effect.andThen(tick))))
        }
        yield* session.idle.await
        session.phase = "watching"
        requestPublish(session)
        yield* log(session, "info", `initial scan done: ${summaryOf(session).runs} runs`)
        return yield* Effect.never
      })

      const summary = yield* Effect.scoped(main).pipe(
        Effect.ensuring(
          Effect.suspend(() => {
            session.phase = "stopped"
            return publish.pipe(
              Effect.andThen(
                Effect.suspend(() =>
                  session.outputFailure === undefined
                    ? log(session, "info", once ? "done" : "stopped; state flushed")
                    : log(session, "error", `stopped; the outputs could not be written: ${session.outputFailure}`)
                )
              )
            )
          }).pipe(Effect.uninterruptible)
        )
      )
      // a board that is not on disk is not a success, whatever was scored
      if (session.outputFailure !== undefined) {
        return yield* new WatchError({ message: `writing the outputs to ${out} failed: ${session.outputFailure}`, output: true })
      }
      return summary
    })
  )
