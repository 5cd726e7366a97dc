/**
 * The watcher service's config file (JSON or YAML): what to watch and score, where the board goes,
 * the status endpoint, and the leaderboard's options (those of `stseval watch`, docs/watch.md).
 * Paths are relative to the config file's folder. Unknown keys are errors, so a misspelt option
 * is never silently ignored by a service that runs unattended.
 *
 * ```yaml
 * task: sick2014
 * gold: /data/SICK_test_annotated.txt
 * submissions: /data/submissions
 * out: /data/board
 * status: { port: 8080 }          # GET /healthz, /status, /leaderboard.{json,md,html} on 127.0.0.1
 * deadline: 2026-11-22T23:59:00Z
 * ```
 */
import * as nodePath from "node:path"
import * as AppConfig from "@stseval/app/config"
import { Schema } from "effect"

const Count = (min: number) => Schema.Int.check(Schema.isGreaterThanOrEqualTo(min))
/** A confidence level as people write it: 95 (percent) or 0.95. */
const Level = Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThan(100))

/** The config file's keys. */
export const WatcherConfigSchema = Schema.Struct({
  task: Schema.String.annotate({ description: "a built-in edition id (sick2014) or an edition file" }),
  submissions: Schema.String.annotate({ description: "the submissions folder to watch" }),
  out: Schema.String.annotate({ description: "the output folder: leaderboard.*, status.json, state.json, watch.log, cache/" }),
  gold: Schema.optionalKey(Schema.String),
  dataRoot: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(
    Schema.Struct({
      port: Count(0).check(Schema.isLessThanOrEqualTo(65535)).annotate({ description: "0: any free port (printed at start)" }),
      host: Schema.optionalKey(
        Schema.String.annotate({ description: "default 127.0.0.1 (this machine only); 0.0.0.0 every interface (a container: the example config says so)" })
      ),
      connections: Schema.optionalKey(Count(1).annotate({ description: "open connections at most (default 256); a new one closes the oldest idle one" })),
      requests: Schema.optionalKey(Count(1).annotate({ description: "files sent at once at most (default 16); more are answered 503 (/healthz is not counted)" })),
      headersTimeout: Schema.optionalKey(Count(1).annotate({ description: "ms a connection may take to send its request's headers (default 10000)" })),
      requestTimeout: Schema.optionalKey(Count(1).annotate({ description: "ms a request may take, or a connection stay silent (default 60000)" })),
      idleTimeout: Schema.optionalKey(Count(1).annotate({ description: "ms an idle keep-alive connection stays open (default 5000)" }))
    })
  ),
  hidden: Schema.optionalKey(Schema.Boolean),
  deadline: Schema.optionalKey(Schema.String.annotate({ description: "ISO 8601, e.g. 2026-11-22T23:59:00Z" })),
  deadlineBy: Schema.optionalKey(Schema.Literals(["mtime", "first-seen"])),
  primaryOnly: Schema.optionalKey(Schema.Boolean),
  runLimit: Schema.optionalKey(Count(1)),
  debounce: Schema.optionalKey(Count(0)),
  settle: Schema.optionalKey(Count(0)),
  rescan: Schema.optionalKey(Count(0)),
  refresh: Schema.optionalKey(Count(0)),
  concurrency: Schema.optionalKey(Count(1)),
  timeBudget: Schema.optionalKey(
    Schema.Finite.check(Schema.isGreaterThan(0)).annotate({ description: "seconds each run may take to be read and scored, in isolation (default 60)" })
  ),
  memoryBudget: Schema.optionalKey(Count(48).annotate({ description: "MiB each run's scorer may hold, in isolation (default 1536)" })),
  ci: Schema.optionalKey(
    Schema.Union([Level, Schema.Struct({ level: Level, resamples: Schema.optionalKey(Count(1)), seed: Schema.optionalKey(Count(0)) })])
  )
})

/** A config file as decoded, its paths absolute. */
export type WatcherConfig = typeof WatcherConfigSchema.Type & { readonly file: string }

export type Parsed = { readonly _tag: "Ok"; readonly config: WatcherConfig } | { readonly _tag: "Error"; readonly errors: ReadonlyArray<string> }

/**
 * Read a config file's text (JSON when the name ends in `.json`, else YAML): every error names the
 * file and the key, what was expected and what was found.
 */
export const parse = (text: string, file: string): Parsed => {
  const read = AppConfig.read(text, file, "task, submissions and out")
  if (read._tag === "Error") return read
  const decoded = AppConfig.decode(WatcherConfigSchema, read.value, file)
  if (decoded._tag === "Error") return decoded
  const c = decoded.value
  const dir = nodePath.dirname(nodePath.resolve(file))
  return {
    _tag: "Ok",
    config: {
      ...c,
      file: nodePath.resolve(file),
      task: AppConfig.isEditionPath(c.task) ? nodePath.resolve(dir, c.task) : c.task,
      submissions: nodePath.resolve(dir, c.submissions),
      out: nodePath.resolve(dir, c.out),
      ...(c.gold !== undefined ? { gold: nodePath.resolve(dir, c.gold) } : {}),
      ...(c.dataRoot !== undefined ? { dataRoot: nodePath.resolve(dir, c.dataRoot) } : {})
    }
  }
}
