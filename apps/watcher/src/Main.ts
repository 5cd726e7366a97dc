/**
 * `stseval-watcher <config>`: the live leaderboard as a service an organiser deploys (docs/watch.md).
 * A thin layer over `@stseval/leaderboard`: the config file (`WatcherConfig.ts`) gives the task, gold,
 * submissions folder, output folder and the board's options; `Watcher.watch` keeps the board
 * current; the status endpoint (`Endpoint.ts`) serves its files. SIGTERM or SIGINT stops it
 * gracefully: the write in progress finishes, the state is flushed, `status.json` says `stopped`,
 * the endpoint closes, and the exit code is 0 (a requested stop is a clean stop).
 *
 * Exit codes: 0 stopped on request (or done, with `--once`); 1 the outputs could not be written;
 * 2 a usage problem (config, task, gold, folders).
 */
import { ExitCode, reportDefects, UsageError } from "@stseval/app/exit"
import { appVersion } from "@stseval/app/version"
import { Registry } from "@stseval/formats"
import { Engine } from "@stseval/scoring"
import { ScoringAdapter, Watcher } from "@stseval/leaderboard"
import { Console, Effect, FileSystem } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as Endpoint from "./Endpoint.js"
import * as WatcherConfig from "./WatcherConfig.js"

/** The version `--version` prints. */
export const version = appVersion(import.meta.url)

const usage = (e: { readonly message: string }) => new UsageError({ message: e.message })

/** Read the config and run the watcher (and its endpoint) until interrupted, or once. */
export const serve = (configFile: string, options: { readonly once?: boolean | undefined } = {}) =>
  Effect.scoped(
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const text = yield* fs.readFileString(configFile).pipe(Effect.mapError((e) => new UsageError({ message: `cannot read the config ${configFile}: ${e.message}` })))
      const parsed = WatcherConfig.parse(text, configFile)
      if (parsed._tag === "Error") return yield* new UsageError({ message: parsed.errors.join("\n") })
      const config = parsed.config
      const edition = yield* Registry.resolve(config.task).pipe(Effect.mapError((e) => new UsageError({ message: `${config.file}: task: ${e.message}` })))
      const gold = yield* Engine.goldPath({ edition, gold: config.gold, dataRoot: config.dataRoot }).pipe(Effect.mapError(usage))
      yield* Engine.submissionsFolder(config.submissions).pipe(Effect.mapError(usage))
      const once = options.once === true
      yield* Console.log(`${edition.id}  ${edition.title}\ngold: ${gold}\n${once ? "scoring" : "watching"} ${config.submissions} -> ${config.out}`)
      if (config.status !== undefined && !once) {
        const { port, host, ...limits } = config.status
        const address = yield* Endpoint.serve({ out: config.out, port, host: host ?? "127.0.0.1", limits }).pipe(
          Effect.mapError((e) => new UsageError({ message: `${config.file}: status: cannot listen on port ${config.status?.port}: ${e.message}` }))
        )
        yield* Console.log(`status: ${address}/healthz, ${address}/status, ${address}/leaderboard.html`)
      }
      const summary = yield* Watcher.watch({
        folder: config.submissions,
        out: config.out,
        once,
        hidden: config.hidden,
        deadline: config.deadline,
        deadlineBy: config.deadlineBy,
        primaryOnly: config.primaryOnly,
        runLimit: config.runLimit,
        debounce: config.debounce,
        settle: config.settle,
        rescanInterval: config.rescan,
        refresh: config.refresh,
        concurrency: config.concurrency,
        ci: config.ci
      }).pipe(
        Effect.provide(
          ScoringAdapter.layerWithReport({
            task: edition,
            gold,
            isolation: {
              budget: {
                ...(config.timeBudget !== undefined ? { timeMs: Math.round(config.timeBudget * 1000) } : {}),
                ...(config.memoryBudget !== undefined ? { memoryMb: config.memoryBudget } : {})
              }
            }
          })
        ),
        // outputs that could not be written: exit 1 with the OS's reason; any other watcher error
        // (a folder that is not there, a locked output folder) is a usage error
        Effect.catchTag("WatchError", (e): Effect.Effect<never, ExitCode | UsageError> =>
          e.output === true
            ? Console.error(`error: ${e.message}`).pipe(Effect.andThen(Effect.fail(new ExitCode({ code: 1, reason: e.message }))))
            : Effect.fail(new UsageError({ message: `${config.file}: ${e.message}` }))
        )
      )
      yield* Console.log(`${summary.runs} run(s): ${summary.scored} scored, ${summary.failed} failed, ${summary.ranked} ranked; see ${config.out}/leaderboard.md`)
      return summary
    })
  )

/** The command line: `stseval-watcher <config> [--once]`. */
export const command = Command.make(
  "stseval-watcher",
  {
    config: Argument.String("config").pipe(Argument.withDescription("The service's config file (JSON or YAML): task, gold, submissions, out, status, and the board's options (docs/watch.md)")),
    once: Flag.Boolean("once").pipe(Flag.withDescription("Score what is there, write the outputs and exit (no status endpoint)"), Flag.withDefault(false))
  },
  ({ config, once }) => Effect.asVoid(serve(config, { once }))
).pipe(
  Command.withDescription(
    "The live leaderboard as a service: watch a submissions folder, keep the board and status.json current, serve /healthz and /status; SIGTERM stops it cleanly (state flushed, exit 143; 130 on Ctrl-C)."
  )
)

/** Run on explicit arguments. A usage problem is one line on stderr and exit 2. */
export const run = (argv: ReadonlyArray<string>) =>
  Command.runWith(command, { version })(argv).pipe(
    Effect.catchTag("UsageError", (e) => Console.error(`error: ${e.message}`).pipe(Effect.andThen(Effect.fail(new ExitCode({ code: 2, reason: e.message }))))),
    // a crash: one line on stderr and exit 70, never a stack trace (nor anything on stdout)
    reportDefects("stseval-watcher")
  )
