import { Console, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { ExitCode, UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Lazy from "../internal/Lazy.js"
import * as Colour from "../internal/Colour.js"
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
    deadline: Flags.deadline,
    deadlineBy: Flag.Literals("deadline-by", ["mtime", "first-seen"]).pipe(
      Flags.defaulting("A run's submission time: the newest mtime of its files, or when the watcher first saw it", "mtime")
    ),
    primaryOnly: Flag.Boolean("primary-only").pipe(Flag.withDescription("Rank primary runs only (default: every run within the limit)"), Flag.withDefault(false)),
    runLimit: Flags.atLeast("run-limit", 1).pipe(Flag.withDescription("Runs per team (default: the edition's run limit)"), Flag.optional),
    debounce: Flags.atLeast("debounce", 0, " milliseconds").pipe(Flags.defaulting("Quiet period in ms before a changed run is scored", 200)),
    settle: Flags.atLeast("settle", 0, " milliseconds").pipe(
      Flags.defaulting("A run is scored only once its newest file is this many ms old: a run still being copied in is not scored half-copied; 0 = off", 1500)
    ),
    rescan: Flags.atLeast("rescan", 0, " milliseconds").pipe(
      Flag.withDescription("Full rescan every this many ms, a safety net for missed file-system events (default 2000 without events, 30000 while they work); 0 = off"),
      Flag.optional
    ),
    refresh: Flags.atLeast("refresh", 0, " seconds").pipe(
      Flags.defaulting("An open leaderboard.html reloads within 2 s of the board changing, and every this many seconds too (for a browser without scripts); 0 = not by time", 30)
    ),
    ...Flags.intervals,
    ...Flags.budget,
    folder: Argument.String("submissions").pipe(Argument.withDescription("The submissions folder: one file, folder or zip per run"))
  },
  Effect.fn(function*({ task, gold, dataRoot, out, once, hidden, deadline, deadlineBy, primaryOnly, runLimit, debounce, settle, rescan, refresh, ci, resamples, seed, timeBudget, memoryBudget, folder }) {
    const c = yield* Colour.Colour
    const edition = yield* Task.edition(task)
    const { ScoringAdapter, Watcher } = yield* Lazy.leaderboard
    const goldPath = yield* Task.goldPath(edition, gold, dataRoot)
    // before anything is printed: a folder that is not there is one line on stderr
    yield* Task.folder(folder)
    yield* Console.log(
      `${c.bold(edition.id)}  ${edition.title}\ngold: ${goldPath}\n${once ? "scoring" : "watching"} ${folder} -> ${out}${hidden ? " (hidden phase)" : ""}${once ? "" : "; Ctrl-C stops"}`
    )
    const summary = yield* Watcher.watch({
      folder,
      out,
      once,
      hidden,
      deadline: Option.getOrUndefined(deadline),
      deadlineBy,
      primaryOnly,
      runLimit: Option.getOrUndefined(runLimit),
      debounce,
      settle,
      rescanInterval: Option.getOrUndefined(rescan),
      refresh,
      // intervals on every figure and rank, as `rank --ci` (the watcher checks resamples and seed)
      ci: Option.match(ci, {
        onNone: () => undefined,
        onSome: (level) => ({ level, resamples: Option.getOrUndefined(resamples), seed: Option.getOrUndefined(seed) })
      })
    }).pipe(
      Effect.provide(ScoringAdapter.layerWithReport({ task: edition, gold: goldPath, isolation: Flags.isolationOf({ timeBudget, memoryBudget }) })),
      // outputs that could not be written (disk full, read-only): exit 1 with the OS's reason;
      // any other watcher error (a folder that is not there, a locked output folder) is a usage error
      Effect.catchTag("WatchError", (e): Effect.Effect<never, ExitCode | UsageError> =>
        e.output === true
          ? Console.error(`${c.red("error:")} ${e.message}`).pipe(Effect.andThen(Effect.fail(new ExitCode({ code: 1, reason: e.message }))))
          : Effect.fail(new UsageError({ message: e.message }))
      )
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
