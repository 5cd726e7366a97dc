import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Lazy from "../internal/Lazy.js"
import * as Style from "../internal/Style.js"
import * as Task from "../internal/Task.js"

/**
 * `stseval watch`: the live leaderboard (docs/watch.md). Runs until Ctrl-C (the write in progress
 * finishes and the state is flushed; exit 130), or with `--once` scores what is there and exits 0.
 */
export const watch = Command.make(
  "watch",
  {
    task: Flags.task,
    gold: Flags.gold,
    dataRoot: Flags.dataRoot,
    out: Flag.String("out").pipe(
      Flag.withAlias("o"),
      Flag.withDescription("Output folder: leaderboard.{json,md,html}, leaderboard.public.*, status.json, state.json, watch.log, cache/")
    ),
    once: Flag.Boolean("once").pipe(Flag.withDescription("Score what is there, write the outputs and exit (cron, CI)"), Flag.withDefault(false)),
    hidden: Flag.Boolean("hidden").pipe(
      Flag.withDescription("Hidden phase: leaderboard.public.* show each run's validation status only, no scores"),
      Flag.withDefault(false)
    ),
    deadline: Flag.String("deadline").pipe(Flag.withDescription("Runs submitted after this ISO 8601 instant are marked post-deadline (dagger)"), Flag.optional),
    deadlineBy: Flag.Literals("deadline-by", ["mtime", "first-seen"]).pipe(
      Flags.defaulting("A run's submission time: the newest mtime of its files, or when the watcher first saw it", "mtime")
    ),
    excludeLate: Flag.Boolean("exclude-post-deadline").pipe(
      Flag.withDescription("List post-deadline runs without ranking them (default: ranked and marked)"),
      Flag.withDefault(false)
    ),
    primaryOnly: Flag.Boolean("primary-only").pipe(Flag.withDescription("Rank primary runs only (default: every run within the limit)"), Flag.withDefault(false)),
    runLimit: Flag.Int("run-limit").pipe(Flag.withDescription("Runs per team (default: the edition's run limit)"), Flag.optional),
    debounce: Flag.Int("debounce").pipe(Flags.defaulting("Quiet period in ms before a changed run is scored", 200)),
    rescan: Flag.Int("rescan").pipe(Flags.defaulting("Full rescan every this many ms, a safety net for missed file-system events; 0 = off", 2000)),
    refresh: Flag.Int("refresh").pipe(
      Flags.defaulting("Seconds after which an open leaderboard.html reloads itself; 0 = never", 30)
    ),
    folder: Argument.String("submissions").pipe(Argument.withDescription("The submissions folder: one file, folder or zip per run"))
  },
  Effect.fn(function*({ task, gold, dataRoot, out, once, hidden, deadline, deadlineBy, excludeLate, primaryOnly, runLimit, debounce, rescan, refresh, folder }) {
    const edition = yield* Task.edition(task)
    const { ScoringAdapter, Watcher } = yield* Lazy.leaderboard
    const goldPath = yield* Task.goldPath(edition, gold, dataRoot)
    // before anything is printed: a folder that is not there is one line on stderr
    yield* Task.folder(folder)
    if (debounce < 0) return yield* new UsageError({ message: "--debounce: must be 0 or more milliseconds" })
    if (refresh < 0) return yield* new UsageError({ message: "--refresh: must be 0 or more seconds" })
    if (rescan < 0) return yield* new UsageError({ message: "--rescan: must be 0 or more milliseconds" })
    if (Option.isSome(runLimit) && runLimit.value < 1) return yield* new UsageError({ message: "--run-limit: must be 1 or more" })
    if (Option.isSome(deadline) && !Number.isFinite(Date.parse(deadline.value))) {
      return yield* new UsageError({ message: `--deadline: "${deadline.value}" is not an ISO 8601 date, e.g. 2017-01-31T23:59:00Z` })
    }
    yield* Console.log(
      `${Style.bold(edition.id)}  ${edition.title}\ngold: ${goldPath}\n${once ? "scoring" : "watching"} ${folder} -> ${out}${hidden ? " (hidden phase)" : ""}${once ? "" : "; Ctrl-C stops"}`
    )
    const summary = yield* Watcher.watch({
      folder,
      out,
      once,
      hidden,
      deadline: Option.getOrUndefined(deadline),
      deadlineBy,
      postDeadline: excludeLate ? "exclude" : "mark",
      primaryOnly,
      runLimit: Option.getOrUndefined(runLimit),
      debounce,
      rescanInterval: rescan,
      refresh
    }).pipe(
      Effect.provide(ScoringAdapter.layerWithReport({ task: edition, gold: goldPath })),
      Effect.mapError((e) => new UsageError({ message: e.message }))
    )
    yield* Console.log(
      `${summary.runs} run(s): ${summary.scored} scored, ${summary.failed} failed, ${summary.ranked} ranked; ` +
        `${summary.scoredThisSession} scored now, ${summary.cacheHits} from the cache. See ${out}/leaderboard.md`
    )
  })
).pipe(
  Command.withDescription(
    "Live leaderboard: watch a submissions folder, score new and changed runs (debounced, cached by content hash), and keep leaderboard.{json,md,html} and status.json current in --out. Survives restarts. Exit 0 with --once, 130 on Ctrl-C, 2 on a usage error."
  )
)
