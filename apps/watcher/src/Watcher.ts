/**
 * The live leaderboard: watch a submissions folder, score what changed, keep the leaderboard in an
 * output folder current, and survive restarts.
 *
 * How it works (details and file formats in docs/watch.md):
 *
 * - Every top-level entry of the folder (file, folder or zip; hidden files, partial downloads and
 *   `*.run.json` metadata excepted) is a run, tracked under its name. A file-system event anywhere
 *   inside an entry, or a difference found by the periodic rescan, "touches" the entry.
 * - A touch bumps the entry's generation counter and (re)starts its settle fiber (a `FiberMap`
 *   keyed by entry, so a new event interrupts the old wait: a debounce). The settle fiber waits
 *   until the run's signature (size + mtime of every file) is unchanged over a whole debounce
 *   window, and a zip opens, then queues the run.
 * - Scoring workers load the run, hash its bytes (SHA-256), and take the outcome from the cache
 *   (`cache/<key>.json`, key = hash + task + gold hash + engine version) or score it and cache it.
 *   Before publishing they check that the generation has not moved and the run still exists with
 *   the same signature: a run deleted or changed mid-scoring leaves no ghost.
 * - A publisher fiber writes `leaderboard.{json,md,html}`, `leaderboard.public.{json,md,html}`,
 *   `status.json` and `state.json` atomically (temp file + rename), coalescing bursts; `watch.log`
 *   is appended to.
 *
 * @since 0.1.0
 */
import { Cause, Deferred, Effect, Exit, FiberMap, FileSystem, Latch, Option, Path, Queue, Schema, Semaphore, Stream } from "effect"
import { Submissions } from "@stseval/formats"
import type { Issue } from "@stseval/formats"
import { hashSubmission, isIgnoredName, isTempFile, RUN_JSON_SUFFIX, sha256, signature, writeAtomic } from "./internal/files.js"
import * as Leaderboard from "./Leaderboard.js"
import { Renderer } from "./Render.js"
import { Scorer } from "./Scorer.js"
import type { RunOutcome } from "./Scorer.js"

/** @since 0.1.0 */
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
  /** `mark` (default) or `exclude` post-deadline runs from the rankings */
  readonly postDeadline?: "mark" | "exclude" | undefined
  /** rank primary runs only (default false) */
  readonly primaryOnly?: boolean | undefined
  /** runs per team (default: the edition's `runLimit`) */
  readonly runLimit?: number | undefined
  /** quiet period per run in ms before it is scored (default 200) */
  readonly debounce?: number | undefined
  /** full rescan every this many ms, a safety net for missed events (default 2000; 0 = off) */
  readonly rescanInterval?: number | undefined
  /** least ms between two writes of the outputs, to coalesce bursts (default 50) */
  readonly publishInterval?: number | undefined
  /** use file-system events (default true); false = rescan only */
  readonly events?: boolean | undefined
  /** runs scored at the same time (default 1) */
  readonly concurrency?: number | undefined
  /** called after each leaderboard write (benchmarks, embedding) */
  readonly onPublish?: ((board: Leaderboard.Leaderboard) => void) | undefined
}

/** @since 0.1.0 */
export interface WatchSummary {
  readonly runs: number
  readonly scored: number
  readonly failed: number
  readonly ranked: number
  /** runs the engine scored in this session (the others came from the cache) */
  readonly scoredThisSession: number
  readonly cacheHits: number
}

/** @since 0.1.0 */
export class WatchError extends Schema.TaggedError<WatchError>()("WatchError", {
  message: Schema.String
}) {}

/** A run's state in `status.json`. @since 0.1.0 */
export type RunStatus = "queued" | "scoring" | "scored" | "failed"

/** One run of `status.json`. @since 0.1.0 */
export interface StatusRun {
  readonly status: RunStatus
  /** the run's id on the leaderboard (after its last publication) */
  readonly id: string | null
  readonly team: string | null
  readonly run: number | null
  readonly hash: string | null
  readonly failure: string | null
  /** validation errors of the published version */
  readonly errors: ReadonlyArray<Issue.Issue>
  readonly warnings: number
  readonly postDeadline: boolean
  readonly submittedAt: string | null
  readonly firstSeen: string
  readonly updatedAt: string
}

/** The content of `status.json`. @since 0.1.0 */
export interface Status {
  readonly format: "stseval/watch-status@1"
  /** `starting` (first scan), `watching`, `once` (a one-shot run), `stopped` (clean exit) */
  readonly phase: "starting" | "watching" | "once" | "stopped"
  /** nothing queued or scoring */
  readonly idle: boolean
  /** runs queued or scoring */
  readonly pending: number
  readonly task: string
  readonly startedAt: string
  readonly updatedAt: string
  readonly session: { readonly scored: number; readonly cacheHits: number }
  /** by entry name */
  readonly runs: Readonly<Record<string, StatusRun>>
}

/** One run of `state.json`. */
interface StateRun {
  readonly key: string
  readonly hash: string
  readonly kind: "file" | "folder" | "zip"
  readonly team: string
  readonly run: number | null
  readonly primary: boolean
  readonly late: boolean
  readonly corrected: boolean
  readonly postDeadline?: boolean | undefined
  readonly description?: string | undefined
  readonly submittedAt: number
  readonly firstSeen: number
  readonly sig: string
}

interface StateFile {
  readonly format: "stseval/watch-state@1"
  readonly task: string
  readonly goldHash: string
  readonly engineVersion: string
  readonly runs: Readonly<Record<string, StateRun>>
}

interface CacheFile {
  readonly key: string
  readonly task: string
  readonly goldHash: string
  readonly engineVersion: string
  readonly hash: string
  readonly outcome: RunOutcome
}

interface Published extends Leaderboard.RunRecord {
  readonly key: string
  readonly sig: string
}

interface Track {
  readonly entry: string
  generation: number
  status: RunStatus
  pending: boolean
  /** signature when the run last settled (the rescan compares against it) */
  settledSig: string | undefined
  published: Published | undefined
  firstSeen: number
  updatedAt: number
}

interface WorkItem {
  readonly track: Track
  readonly generation: number
  readonly sig: string
  readonly mtime: number
}

/** Output file names. @since 0.1.0 */
export const files = {
  leaderboard: "leaderboard.json",
  leaderboardMd: "leaderboard.md",
  leaderboardHtml: "leaderboard.html",
  publicJson: "leaderboard.public.json",
  publicMd: "leaderboard.public.md",
  publicHtml: "leaderboard.public.html",
  status: "status.json",
  state: "state.json",
  log: "watch.log",
  cache: "cache"
} as const

const iso = (ms: number) => new Date(ms).toISOString()

const parseDeadline = (d: WatchOptions["deadline"]): Effect.Effect<number | undefined, WatchError> => {
  if (d === undefined) return Effect.succeed(undefined)
  const ms = d instanceof Date ? d.getTime() : typeof d === "number" ? d : Date.parse(d)
  return Number.isFinite(ms) ? Effect.succeed(ms) : Effect.fail(new WatchError({ message: `the deadline "${String(d)}" is not a date (use ISO 8601, e.g. 2026-11-22T23:59:00Z)` }))
}

/**
 * Watch `options.folder` and keep the leaderboard in `options.out` current. Runs until interrupted
 * (Ctrl-C under `NodeRuntime.runMain`: the write in progress finishes and the state is flushed),
 * or, with `once`, until everything present is scored.
 *
 * @since 0.1.0
 */
export const watch = (
  options: WatchOptions
): Effect.Effect<WatchSummary, WatchError, Scorer | FileSystem.FileSystem | Path.Path> =>
  Effect.scoped(Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const scorer = yield* Scorer
    const renderer = yield* Renderer
    const edition = scorer.edition
    const folder = path.resolve(options.folder)
    const out = path.resolve(options.out)
    const once = options.once ?? false
    const hidden = options.hidden ?? false
    const debounce = Math.max(0, options.debounce ?? 200)
    const rescanInterval = options.rescanInterval ?? 2000
    const publishInterval = Math.max(0, options.publishInterval ?? 50)
    const deadlineBy = options.deadlineBy ?? "mtime"
    const runLimit = options.runLimit ?? edition.runLimit
    const deadline = yield* parseDeadline(options.deadline)
    const cacheDir = path.join(out, files.cache)
    const fail = (message: string) => (e: { readonly message: string }) => new WatchError({ message: `${message}: ${e.message}` })

    const folderInfo = yield* fs.stat(folder).pipe(Effect.mapError(fail(`cannot read the submissions folder ${folder}`)))
    if (folderInfo.type !== "Directory") return yield* new WatchError({ message: `${folder} is not a folder` })
    yield* fs.makeDirectory(cacheDir, { recursive: true }).pipe(Effect.mapError(fail(`cannot create the output folder ${out}`)))
    // Temp files of a writer killed between write and rename: never complete, safe to drop.
    for (const dir of [out, cacheDir]) {
      for (const name of yield* fs.readDirectory(dir).pipe(Effect.orElseSucceed(() => [] as Array<string>))) {
        if (isTempFile(name)) yield* fs.remove(path.join(dir, name)).pipe(Effect.ignore)
      }
    }
    // An output folder inside the submissions folder is not a run.
    const outRel = path.relative(folder, out)
    const outEntry = outRel !== "" && !outRel.startsWith("..") && !path.isAbsolute(outRel) ? outRel.split(/[\\/]/)[0] : undefined

    const startedAt = Date.now()
    const log = (level: "info" | "warn" | "error", message: string) =>
      Effect.gen(function* () {
        yield* level === "info" ? Effect.logInfo(message) : level === "warn" ? Effect.logWarning(message) : Effect.logError(message)
        yield* fs.writeFileString(path.join(out, files.log), `${new Date().toISOString()} ${level.toUpperCase()} ${message}\n`, { flag: "a" }).pipe(Effect.ignore)
      })

    // ---- state ---------------------------------------------------------------------------------
    const tracks = new Map<string, Track>()
    let pending = 0
    let scoredThisSession = 0
    let cacheHits = 0
    let phase: Status["phase"] = once ? "once" : "starting"
    const idle = yield* Latch.make(true)

    const cacheKey = (hash: string) => sha256(`${hash}|${edition.id}|${scorer.goldHash}|${scorer.engineVersion}`)
    const cacheFile = (key: string) => path.join(cacheDir, `${key}.json`)
    const readCache = (key: string) =>
      fs.readFileString(cacheFile(key)).pipe(
        Effect.map((text) => {
          try {
            const c = JSON.parse(text) as CacheFile
            return c.key === key ? c.outcome : undefined
          } catch {
            return undefined
          }
        }),
        Effect.orElseSucceed(() => undefined)
      )

    // Restore the last state: published runs reappear at once (from the cache), then every run is
    // verified again (re-hashed; unchanged runs are not re-scored).
    const stateText = yield* fs.readFileString(path.join(out, files.state)).pipe(Effect.option)
    if (Option.isSome(stateText)) {
      let state: StateFile | undefined
      try {
        state = JSON.parse(stateText.value) as StateFile
      } catch {
        yield* log("warn", `${files.state} is not valid JSON; starting afresh (cached scores are still used)`)
      }
      if (state !== undefined && (state.task !== edition.id || state.goldHash !== scorer.goldHash || state.engineVersion !== scorer.engineVersion)) {
        // another task, gold or engine: the old board must not show even for a moment
        yield* log("info", `${files.state} was written for another task, gold or engine version; every run is scored afresh`)
      } else if (state?.format === "stseval/watch-state@1") {
        for (const [entry, s] of Object.entries(state.runs)) {
          const outcome = yield* readCache(s.key)
          const track: Track = { entry, generation: 0, status: "queued", pending: false, settledSig: s.sig, published: undefined, firstSeen: s.firstSeen, updatedAt: startedAt }
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
              hash: s.hash,
              submittedAt: s.submittedAt,
              outcome,
              key: s.key,
              sig: s.sig
            }
            track.status = outcome.status
          }
          tracks.set(entry, track)
        }
        yield* log("info", `restored ${tracks.size} runs from ${files.state}`)
      }
    }

    const markDone = (t: Track) => {
      if (t.pending) {
        t.pending = false
        pending--
        if (pending === 0) Latch.openUnsafe(idle)
      }
    }
    const markPending = (t: Track) => {
      if (!t.pending) {
        t.pending = true
        pending++
        Latch.closeUnsafe(idle)
      }
    }

    // ---- publishing ----------------------------------------------------------------------------
    const wake = yield* Queue.sliding<void>(1)
    const writeLock = yield* Semaphore.make(1)
    let lastBoard = ""
    let lastStatus = ""
    let lastState = ""
    const requestPublish = () => {
      Queue.offerUnsafe(wake, undefined)
    }

    const snapshot = () => {
      const records = [...tracks.values()].flatMap((t) => (t.published !== undefined ? [t.published] : []))
      const board: Leaderboard.Leaderboard = {
        ...Leaderboard.build(records, { task: edition.id, runLimit, deadline, postDeadline: options.postDeadline, primaryOnly: options.primaryOnly }),
        hidden
      }
      return board
    }

    const publishAll = writeLock.withPermits(1)(
      Effect.gen(function* () {
        const board = snapshot()
        const boardJson = JSON.stringify(board, null, 2) + "\n"
        if (boardJson !== lastBoard) {
          const full = renderer.render(board)
          const pub = Leaderboard.publicView(board, hidden)
          const pubRendered = renderer.render(pub)
          yield* writeAtomic(path.join(out, files.leaderboardMd), full.md)
          yield* writeAtomic(path.join(out, files.leaderboardHtml), full.html)
          yield* writeAtomic(path.join(out, files.publicJson), JSON.stringify(pub, null, 2) + "\n")
          yield* writeAtomic(path.join(out, files.publicMd), pubRendered.md)
          yield* writeAtomic(path.join(out, files.publicHtml), pubRendered.html)
          // leaderboard.json last: a reader that sees it new sees the other files new too
          yield* writeAtomic(path.join(out, files.leaderboard), boardJson)
          lastBoard = boardJson
          options.onPublish?.(board)
        }
        const stateRuns: Record<string, StateRun> = {}
        for (const t of [...tracks.values()].sort((a, b) => (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0))) {
          const p = t.published
          if (p === undefined) continue
          stateRuns[t.entry] = {
            key: p.key,
            hash: p.hash,
            kind: p.kind,
            team: p.team,
            run: p.run ?? null,
            primary: p.primary,
            late: p.late,
            corrected: p.corrected,
            ...(p.postDeadline === true ? { postDeadline: true } : {}),
            ...(p.description !== undefined ? { description: p.description } : {}),
            submittedAt: p.submittedAt,
            firstSeen: t.firstSeen,
            sig: p.sig
          }
        }
        const state: StateFile = { format: "stseval/watch-state@1", task: edition.id, goldHash: scorer.goldHash, engineVersion: scorer.engineVersion, runs: stateRuns }
        const stateJson = JSON.stringify(state, null, 2) + "\n"
        if (stateJson !== lastState) {
          yield* writeAtomic(path.join(out, files.state), stateJson)
          lastState = stateJson
        }
        const ids = new Map(board.runs.map((r) => [r.entry, r]))
        const runs: Record<string, StatusRun> = {}
        for (const t of [...tracks.values()].sort((a, b) => (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0))) {
          const p = t.published
          const r = ids.get(t.entry)
          runs[t.entry] = {
            status: t.status,
            id: r?.id ?? null,
            team: p?.team ?? null,
            run: p?.run ?? null,
            hash: p?.hash ?? null,
            failure: p?.outcome.failure ?? null,
            errors: p?.outcome.errors ?? [],
            warnings: p?.outcome.warnings.length ?? 0,
            postDeadline: r?.flags.includes("post-deadline") ?? false,
            submittedAt: p !== undefined ? iso(p.submittedAt) : null,
            firstSeen: iso(t.firstSeen),
            updatedAt: iso(t.updatedAt)
          }
        }
        const statusBody = {
          format: "stseval/watch-status@1" as const,
          phase,
          idle: pending === 0,
          pending,
          task: edition.id,
          startedAt: iso(startedAt),
          session: { scored: scoredThisSession, cacheHits },
          runs
        }
        const statusKey = JSON.stringify(statusBody)
        if (statusKey !== lastStatus) {
          const status: Status = { ...statusBody, updatedAt: new Date().toISOString() }
          yield* writeAtomic(path.join(out, files.status), JSON.stringify(status, null, 2) + "\n")
          lastStatus = statusKey
        }
      }).pipe(Effect.catch((e) => log("error", `writing the outputs failed: ${e.message}`)))
    )

    // ---- runs ----------------------------------------------------------------------------------
    const debouncers = yield* FiberMap.make<string>()
    const work = yield* Queue.unbounded<WorkItem>()

    const setStatus = (t: Track, status: RunStatus) => {
      t.status = status
      t.updatedAt = Date.now()
      requestPublish()
    }

    // Events: one non-recursive watcher on the submissions folder (inotify reports entries created,
    // removed, renamed and files directly in it modified), plus a recursive watcher per folder run
    // for the files inside it. Node 20's recursive fs.watch on Linux is implemented in JavaScript:
    // it re-reads the whole tree on every event and stat-polls every file, which does not scale to a
    // folder of hundreds of runs, but is fine on one run's handful of files.
    const useEvents = !once && (options.events ?? true)
    const runWatchers = yield* FiberMap.make<string>()
    const watchRunFolder = (t: Track) =>
      FiberMap.run(runWatchers, t.entry, { onlyIfMissing: true })(
        fs.watch(path.join(folder, t.entry), { recursive: true }).pipe(
          Stream.runForEach(() => touch(t.entry)),
          // the folder went away or was replaced by a file: its top-level event touches the run
          Effect.ignore
        )
      ).pipe(Effect.asVoid)

    const removeEntry = (t: Track, why: string) =>
      Effect.gen(function* () {
        if (tracks.get(t.entry) !== t) return
        yield* FiberMap.remove(runWatchers, t.entry)
        tracks.delete(t.entry)
        markDone(t)
        requestPublish()
        if (t.published !== undefined) yield* log("info", `${t.entry}: ${why}; removed from the leaderboard`)
      })

    const isRunName = (entry: string) => !isIgnoredName(entry) && !entry.endsWith(RUN_JSON_SUFFIX) && entry !== outEntry

    const touch = (entry: string): Effect.Effect<void, never, FileSystem.FileSystem | Path.Path> =>
      Effect.suspend(() => {
        if (!isRunName(entry)) return Effect.void
        let t = tracks.get(entry)
        if (t === undefined) {
          const now = Date.now()
          t = { entry, generation: 0, status: "queued", pending: false, settledSig: undefined, published: undefined, firstSeen: now, updatedAt: now }
          tracks.set(entry, t)
        }
        t.generation++
        markPending(t)
        if (t.status !== "scoring") setStatus(t, "queued")
        return FiberMap.run(debouncers, entry, settle(t, t.generation)).pipe(Effect.asVoid)
      })

    // A metadata file `X.run.json` changes the meta of run `X` (`X.txt`, `X.zip`, `X/`...).
    const touchMetadataOwner = (name: string) =>
      Effect.gen(function* () {
        const stem = name.slice(0, -RUN_JSON_SUFFIX.length)
        const names = yield* fs.readDirectory(folder).pipe(Effect.orElseSucceed(() => [] as Array<string>))
        for (const n of new Set([...names, ...tracks.keys()])) {
          if (Submissions.stripExtension(n) === stem && isRunName(n)) yield* touch(n)
        }
      })

    const zipOpens = (file: string) =>
      fs.readFile(file).pipe(
        Effect.map((bytes) => !Submissions.readZip(bytes, file).issues.some((i) => i.code === "file-unreadable")),
        Effect.orElseSucceed(() => false)
      )

    // Wait until the run has been quiet for a whole debounce window (signature unchanged), then queue it.
    const settle = (t: Track, generation: number): Effect.Effect<void, never, FileSystem.FileSystem | Path.Path> =>
      Effect.gen(function* () {
        let zipRetries = 1
        while (true) {
          const before = yield* signature(folder, t.entry)
          yield* Effect.sleep(debounce)
          const after = yield* signature(folder, t.entry)
          if (before.sig !== after.sig) continue
          if (tracks.get(t.entry) !== t || t.generation !== generation) return
          if (after.sig === "absent") return yield* removeEntry(t, "deleted")
          const full = path.join(folder, t.entry)
          if (edition.submission === "folder" && after.sig.startsWith("File|") && !/\.zip$/i.test(t.entry)) {
            yield* log("warn", `${t.entry}: not a run (a run of ${edition.id} is a folder or a zip); ignored`)
            return yield* removeEntry(t, "not a run")
          }
          // a zip still being written does not open: give it one more window before scoring it as broken
          if (/\.zip$/i.test(t.entry) && after.sig.startsWith("File|") && zipRetries > 0 && !(yield* zipOpens(full))) {
            zipRetries--
            continue
          }
          if (useEvents && after.sig.startsWith("Directory|")) yield* watchRunFolder(t)
          t.settledSig = after.sig
          Queue.offerUnsafe(work, { track: t, generation, sig: after.sig, mtime: after.mtime })
          return
        }
      })

    const scoreSafely = (sub: Submissions.Submission) =>
      scorer.score(sub).pipe(
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

    const processItem = (item: WorkItem) =>
      Effect.gen(function* () {
        const t = item.track
        if (tracks.get(t.entry) !== t || t.generation !== item.generation) return
        setStatus(t, "scoring")
        const full = path.join(folder, t.entry)
        const loaded = yield* Submissions.loadRun(full, edition).pipe(Effect.result)
        if (loaded._tag === "Failure") {
          const now = yield* signature(folder, t.entry)
          if (tracks.get(t.entry) !== t || t.generation !== item.generation) return
          if (now.sig === "absent") return yield* removeEntry(t, "deleted while being read")
          // changed under our feet: settle it again
          if (now.sig !== item.sig) return yield* touch(t.entry)
          yield* log("error", `${t.entry}: cannot be read: ${loaded.failure.message}`)
          setStatus(t, "failed")
          markDone(t)
          return
        }
        const sub = loaded.success
        const hash = hashSubmission(t.entry, sub)
        const key = cacheKey(hash)
        let outcome = t.published?.key === key ? t.published.outcome : yield* readCache(key)
        if (outcome !== undefined) {
          cacheHits++
        } else {
          const started = Date.now()
          const scored = yield* scoreSafely(sub)
          outcome = scored.outcome
          scoredThisSession++
          if (scored.cacheable) {
            const c: CacheFile = { key, task: edition.id, goldHash: scorer.goldHash, engineVersion: scorer.engineVersion, hash, outcome }
            yield* writeAtomic(cacheFile(key), JSON.stringify(c)).pipe(
              Effect.catch((e) => log("error", `${t.entry}: the score could not be cached: ${e.message}`))
            )
          }
          yield* log(
            outcome.status === "scored" ? "info" : "warn",
            `${t.entry}: ${outcome.status} in ${Date.now() - started} ms${outcome.status === "failed" ? ` (${outcome.failure ?? `${outcome.errors.length} errors`})` : ""}: ${outcome.official.map((o) => `${o.ranking} ${o.metric} ${o.value ?? "–"}`).join(", ")}`
          )
        }
        // Publish only what still describes the folder: a newer generation is on its way, and a run
        // deleted or changed while it was scored must not come back as a ghost.
        if (tracks.get(t.entry) !== t || t.generation !== item.generation) return
        const now = yield* signature(folder, t.entry)
        if (now.sig === "absent") return yield* removeEntry(t, "deleted while being scored")
        if (now.sig !== item.sig) return yield* touch(t.entry)
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
          hash,
          submittedAt,
          outcome,
          key,
          sig: item.sig
        }
        setStatus(t, outcome.status)
        markDone(t)
      })

    const worker = Effect.forever(
      Queue.take(work).pipe(
        Effect.flatMap((item) =>
          processItem(item).pipe(
            Effect.catchCause((cause) =>
              Cause.hasInterruptsOnly(cause)
                ? Effect.failCause(cause)
                : Effect.gen(function* () {
                    yield* log("error", `${item.track.entry}: ${Cause.pretty(cause).split("\n")[0]}`)
                    setStatus(item.track, "failed")
                    markDone(item.track)
                  })
            )
          )
        )
      )
    )

    // ---- scans and events ----------------------------------------------------------------------
    const listRuns = fs.readDirectory(folder).pipe(
      Effect.map((names) => names.filter(isRunName)),
      Effect.orElseSucceed(() => [] as Array<string>)
    )

    const rescan = Effect.gen(function* () {
      const names = new Set(yield* listRuns)
      for (const name of new Set([...names, ...tracks.keys()])) {
        const t = tracks.get(name)
        if (t?.pending === true) continue
        const now = yield* signature(folder, name)
        if (t === undefined || now.sig !== t.settledSig) yield* touch(name)
      }
    })

    const onEvent = (relative: string) => {
      const rel = path.isAbsolute(relative) ? path.relative(folder, relative) : relative
      const first = rel.split(/[\\/]/)[0] ?? ""
      if (first.endsWith(RUN_JSON_SUFFIX)) return touchMetadataOwner(first)
      return touch(first)
    }

    const summary = (): WatchSummary => {
      const board = snapshot()
      return { runs: board.counts.runs, scored: board.counts.scored, failed: board.counts.failed, ranked: board.counts.ranked, scoredThisSession, cacheHits }
    }

    const main = Effect.gen(function* () {
      yield* log("info", `watching ${folder} for ${edition.id} runs; outputs in ${out}${once ? " (once)" : ""}`)
      // A minimum gap between writes keeps bursts (500 runs landing at once) from spending the
      // machine on rewriting the leaderboard instead of scoring; the last change is always written.
      yield* Effect.forkScoped(
        Effect.forever(Queue.take(wake).pipe(Effect.andThen(publishAll), Effect.andThen(Effect.sleep(publishInterval))))
      )
      for (let i = 0; i < Math.max(1, options.concurrency ?? 1); i++) yield* Effect.forkScoped(worker)
      if (useEvents) {
        const ready = yield* Deferred.make<void>()
        yield* Effect.forkScoped(
          fs.watch(folder, { recursive: false, onReady: () => Deferred.doneUnsafe(ready, Exit.void) }).pipe(
            Stream.runForEach((event) => onEvent(event.path)),
            Effect.catch((e) => log("warn", `file-system events stopped (${e.message}); relying on the rescan every ${rescanInterval} ms`)),
            Effect.ensuring(Deferred.succeed(ready, undefined))
          )
        )
        // scan only once the watcher is installed, so nothing lands unseen in between
        yield* Deferred.await(ready).pipe(Effect.timeoutOption(2000))
      }
      for (const name of new Set([...(yield* listRuns), ...tracks.keys()])) yield* touch(name)
      requestPublish()
      if (once) {
        yield* idle.await
        return summary()
      }
      if (rescanInterval > 0) yield* Effect.forkScoped(Effect.forever(Effect.sleep(rescanInterval).pipe(Effect.andThen(rescan))))
      yield* idle.await
      phase = "watching"
      requestPublish()
      yield* log("info", `initial scan done: ${summary().runs} runs`)
      return yield* Effect.never
    })

    const result = yield* Effect.scoped(main).pipe(
      Effect.ensuring(
        Effect.suspend(() => {
          phase = "stopped"
          return publishAll.pipe(Effect.andThen(log("info", once ? "done" : "stopped; state flushed")))
        }).pipe(Effect.uninterruptible)
      )
    )
    return result
  }))
