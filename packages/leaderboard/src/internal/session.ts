/**
 * The state one watcher session shares between its parts (tracking runs, scoring them,
 * publishing the board): the runs it tracks by name, counters, the queues and the log.
 *
 * @internal
 */
import { Issue } from "@stseval/formats"
import type { Registry } from "@stseval/formats"
import { Effect, FileSystem, Latch, Path, Queue } from "effect"
import type { FiberMap } from "effect"
import type * as Leaderboard from "../Leaderboard.js"
import type { RendererShape } from "../BoardPage.js"
import type { Uncertainty } from "@stseval/scoring"
import type { ScorerShape } from "../Scorer.js"
import type { Batches } from "./entries.js"
import type { Journals } from "./journal.js"
import type { RunStatus, Status } from "../Status.js"

/** Output file names. */
export const files = {
  leaderboard: "leaderboard.json",
  leaderboardMd: "leaderboard.md",
  leaderboardHtml: "leaderboard.html",
  publicJson: "leaderboard.public.json",
  publicMd: "leaderboard.public.md",
  publicHtml: "leaderboard.public.html",
  /** the board's version, as a script the open `leaderboard.html` loads every 2 s to reload itself when the board changed */
  leaderboardVersion: "leaderboard.version.js",
  publicVersion: "leaderboard.public.version.js",
  status: "status.json",
  state: "state.json",
  lock: "watch.lock",
  log: "watch.log",
  cache: "cache"
} as const

/** A run as last published, with its cache key and the signature of its files then. */
export interface Published extends Leaderboard.RunRecord {
  readonly key: string
  readonly sig: string
}

/** One tracked entry of the submissions folder. */
export interface Track {
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

/** A settled run waiting to be scored. */
export interface WorkItem {
  readonly track: Track
  readonly generation: number
  readonly sig: string
  readonly mtime: number
}

/** The watcher's options, resolved. */
export interface Settings {
  readonly folder: string
  readonly out: string
  readonly cacheDir: string
  readonly once: boolean
  readonly hidden: boolean
  readonly debounce: number
  /** ms a run's newest file (or folder) mtime must be in the past before it is scored: a run still being copied waits */
  readonly settle: number
  /** ms between rescans without file-system events (0 = none) */
  readonly rescanInterval: number
  /** ms between rescans while file-system events work (a safety net) */
  readonly eventsRescanInterval: number
  readonly publishInterval: number
  /** seconds after which the HTML pages reload themselves; 0 = never */
  readonly refresh: number
  readonly deadlineBy: "mtime" | "first-seen"
  readonly runLimit: number
  readonly deadline: number | undefined
  readonly primaryOnly: boolean | undefined
  readonly useEvents: boolean
  readonly concurrency: number
  /** the output folder's entry in the submissions folder, when it is inside it (not a run) */
  readonly outEntry: string | undefined
  readonly onPublish: ((board: Leaderboard.Leaderboard) => void) | undefined
  /** intervals on every figure and rank (`--ci`): the level as a fraction, resamples, seed; undefined = none */
  readonly ci: Required<Pick<Uncertainty.Options, "level" | "resamples" | "seed">> | undefined
  /** the tied-with-best marks on the board (the scorer gives aligned scores, and they were not turned off) */
  readonly marks: boolean
}

export interface Session {
  readonly settings: Settings
  readonly edition: Registry.TaskEdition
  readonly scorer: ScorerShape
  readonly renderer: RendererShape
  /**
   * The names in `cache/`, listed once at the start and kept by the session's own writes (it alone
   * writes there: the lock): a run's entry or journal that is not among them is not looked for,
   * which was a failed read for every new run. One put there from outside is not seen: that run is
   * scored again.
   */
  readonly cacheFiles: Set<string>
  /** which batch file of the cache holds each key (`entries.ts`) */
  readonly batches: Batches
  /** what the scoring journals a stop left say (`journal.ts`), read once at the start */
  readonly journals: Journals
  /** the tracked runs by entry name (a Map: a run named `__proto__` is a run like any other) */
  readonly tracks: Map<string, Track>
  readonly counters: { pending: number; scoredThisSession: number; cacheHits: number }
  phase: Status["phase"]
  /** why the last publish could not write the outputs (the OS's reason), or undefined */
  outputFailure: string | undefined
  readonly startedAt: number
  /** open when nothing is queued or scoring */
  readonly idle: Latch.Latch
  /** a request to publish (sliding: bursts coalesce) */
  readonly wake: Queue.Queue<void>
  readonly work: Queue.Queue<WorkItem>
  /** per entry, the fiber waiting for it to settle (a new event restarts it: a debounce) */
  readonly debouncers: FiberMap.FiberMap<string>
  /** per folder run, its recursive file-system watcher */
  readonly runWatchers: FiberMap.FiberMap<string>
  /** entries found not to be runs, with their signature then: warned about once, not on every rescan */
  readonly notRuns: Map<string, string>
  /**
   * The last board's intervals (`--ci`) and marks, by the board without them: the board is built on
   * every publish (a run's status changing is one), its intervals and marks only when its runs or
   * ranks change.
   */
  intervalsMemo: { readonly key: string; readonly board: Leaderboard.Leaderboard; readonly problem: string | undefined } | undefined
  /**
   * The last board, by the published records it was built from (the same objects, in the same
   * order) and whether runs were pending: a status change (a run queued, being scored) builds no
   * board, so its write costs the status alone and does not hold back the next board's.
   */
  boardMemo?: BoardMemo | undefined
  /** file-system events are on and have not stopped (the rescan is then rare: `eventsRescanInterval`) */
  eventsLive: boolean
}

/**
 * The last board and its ranking, by the published records they were made from: the ranking (and
 * so the marks and intervals) is made again only when the records change, whether runs are
 * pending or not (that decides only whether intervals and marks are shown yet).
 */
export interface BoardMemo {
  readonly records: ReadonlyArray<Published>
  readonly pending: boolean
  /** the ranked board (with the session's `hidden`), and its JSON when intervals or marks are on ("" otherwise) */
  readonly ranked: { readonly ranked: Leaderboard.Ranked; readonly key: string }
  readonly board: Leaderboard.Leaderboard
}

/**
 * A line in the log (Effect's logger) and in `watch.log`. Control characters (a run named with
 * terminal escapes, a line break in a name) are written as visible escapes (`\x1b`), never raw: a
 * `tail -f watch.log` must not run a run's escape sequences, nor a name forge a log line.
 */
export const log = (session: Session, level: "info" | "warn" | "error", raw: string) =>
  Effect.flatMap(logged(session, level, raw), (append) => append)

/**
 * `log` in two: the line given to Effect's logger now (by the calling fiber), and what appends it
 * to `watch.log` (to run when the caller likes, e.g. together with other writes).
 */
export const logged = (session: Session, level: "info" | "warn" | "error", raw: string) =>
  Effect.map(logLine(level, raw), (line) => appendLog(session, line))

/**
 * A line given to Effect's logger now, and its text for `watch.log`, which the caller appends
 * (`appendLog`): a batch's runs' lines in one write, not an open, write and close each.
 */
export const logLine = (level: "info" | "warn" | "error", raw: string) =>
  Effect.gen(function* () {
    const message = Issue.escapeControls(raw)
    yield* level === "info" ? Effect.logInfo(message) : level === "warn" ? Effect.logWarning(message) : Effect.logError(message)
    return `${new Date().toISOString()} ${level.toUpperCase()} ${message}\n`
  })

/** Lines (`logLine`'s) appended to `watch.log` in one write; a failed write is ignored, as a line's. */
export const appendLog = (session: Session, text: string) =>
  text === ""
    ? Effect.void
    : Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        const path = yield* Path.Path
        yield* fs.writeFileString(path.join(session.settings.out, files.log), text, { flag: "a" }).pipe(Effect.ignore)
      })

export const requestPublish = (session: Session): void => {
  Queue.offerUnsafe(session.wake, undefined)
}

export const setStatus = (session: Session, t: Track, status: RunStatus): void => {
  t.status = status
  t.updatedAt = Date.now()
  requestPublish(session)
}

export const markDone = (session: Session, t: Track): void => {
  if (t.pending) {
    t.pending = false
    session.counters.pending--
    if (session.counters.pending === 0) Latch.openUnsafe(session.idle)
  }
}

export const markPending = (session: Session, t: Track): void => {
  if (!t.pending) {
    t.pending = true
    session.counters.pending++
    Latch.closeUnsafe(session.idle)
  }
}

/** Code-point order of entry names, for files that list runs by entry. */
export const byEntry = (a: Track, b: Track): number => (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0)
