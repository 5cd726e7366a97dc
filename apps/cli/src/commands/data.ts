import { Console, Effect } from "effect"
import { Argument, Command } from "effect/cli"
import { DataStore, Files, Registry } from "@stseval/formats"
import { ExitCode } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Colour from "../internal/Colour.js"
import * as Task from "../internal/Task.js"
import * as TextTable from "../internal/TextTable.js"

const editions = Argument.String("task").pipe(
  Argument.withDescription(
    "Task editions (registry ids or edition files; a family name selects all its editions, e.g. semrel2024 = semrel2024-a, -b and -c); default: every edition with public data"
  ),
  Argument.variadic()
)

// `Registry.select`: an id, or a name that selects several editions (semrel2024); else a file
const selected = (ids: ReadonlyArray<string>) =>
  ids.length === 0
    ? Effect.succeed(Registry.builtin.filter((e) => e.data !== undefined))
    : Effect.forEach(ids, (id) => {
        const found = Registry.select(id)
        return found.length > 0 ? Effect.succeed(found) : Effect.map(Task.edition(id), (e) => [e])
      }).pipe(Effect.map((lists) => lists.flat()))

const fetch = Command.make(
  "fetch",
  {
    tasks: editions,
    dataRoot: Flags.dataRoot,
    force: Flags.toggle("force", "Download again even when cached"),
    json: Flags.json
  },
  Effect.fn(function*({ tasks, dataRoot, force, json }) {
    const c = yield* Colour.Colour
    const root = yield* Task.root(dataRoot)
    const report: Array<{ task: string; url: string; status: string; sha256?: string; detail?: string }> = []
    for (const task of yield* selected(tasks)) {
      if (task.data === undefined) {
        report.push({ task: task.id, url: "", status: "no-public-data", detail: "the registry knows no public source" })
        continue
      }
      const dir = DataStore.goldDir(task, root) ?? root
      for (const source of task.data.sources) {
        if (!json) yield* Console.error(c.dim(`fetching ${source.url}`))
        const result = yield* DataStore.fetchSource(dir, source, { force, root }).pipe(Effect.result)
        if (result._tag === "Success") {
          const s = result.success.source
          report.push({
            task: task.id,
            url: source.url,
            status: result.success.cached ? "cached" : s.verified ? "fetched, verified" : "fetched, checksum recorded",
            sha256: s.sha256
          })
        } else {
          report.push({ task: task.id, url: source.url, status: "failed", detail: Files.describe(result.failure) })
        }
      }
    }
    if (json) yield* Console.log(JSON.stringify({ root, sources: report }, null, 2))
    else {
      yield* Console.log(
        TextTable.render(
          [{ header: "edition" }, { header: "status" }, { header: "source" }],
          report.map((r) => [r.task, r.status === "failed" ? c.red(`failed: ${r.detail ?? ""}`) : r.status, r.url]),
          c
        )
      )
      yield* Console.log(`\ndata store: ${root}`)
    }
    if (report.some((r) => r.status === "failed")) return yield* new ExitCode({ code: 1, reason: "some downloads failed" })
  })
).pipe(
  Command.withDescription("Download an edition's public files, verify their SHA-256, unpack and cache them."),
  Command.withExamples(({ commandPath }) => [{ command: `${commandPath.join(" ")} sts2017`, description: "the STS 2017 gold and inputs, into the data store" }])
)

const status = Command.make(
  "status",
  { tasks: editions, dataRoot: Flags.dataRoot, json: Flags.json },
  Effect.fn(function*({ tasks, dataRoot, json }) {
    const c = yield* Colour.Colour
    const root = yield* Task.root(dataRoot)
    // what scoring will find (`DataStore.status`): a copy of the public data placed by hand under
    // STSEVAL_DATA is ready although nothing was fetched
    const rows: Array<DataStore.EditionStatus> = []
    for (const task of yield* selected(tasks)) if (task.data !== undefined) rows.push(yield* DataStore.status(task, root))
    if (json) {
      yield* Console.log(JSON.stringify({ root, editions: rows.map((r) => ({ task: r.edition, ...r })) }, null, 2))
    } else {
      const goldRow = (r: DataStore.EditionStatus) => {
        const missing = r.gold.filter((g) => g.status === "missing")
        return [
          r.edition,
          "gold",
          r.ready ? c.green("ready") : c.yellow("missing"),
          r.ready
            ? `scoring needs no --gold (${r.dir ?? root})`
            : `${missing.length} of ${r.gold.length} gold files missing (${missing[0]?.file ?? ""}); run \`stseval data fetch ${r.edition}\``
        ]
      }
      yield* Console.log(
        TextTable.render(
          [{ header: "edition" }, { header: "file" }, { header: "status" }, { header: "detail" }],
          rows.flatMap((r) => [
            goldRow(r),
            ...r.sources.map((s) => [
              r.edition,
              s.file,
              s.status === "ok" ? c.green("ok") : s.status === "missing" ? c.yellow(r.ready ? "not fetched" : "missing") : c.red("mismatch"),
              s.detail
            ])
          ]),
          c
        )
      )
      yield* Console.log(`\ndata store: ${root}`)
    }
    if (rows.some((r) => r.sources.some((s) => s.status === "mismatch"))) {
      return yield* new ExitCode({ code: 1, reason: "a cached file no longer matches its checksum" })
    }
  })
).pipe(
  Command.withDescription("Show, per edition, whether scoring finds its gold in the data store (fetched or placed there), and re-verify the downloads' SHA-256."),
  Command.withExamples(({ commandPath }) => [{ command: `${commandPath.join(" ")} semrel2024`, description: "whether scoring finds the gold of SemRel's three tracks" }])
)

export const data = Command.make("data").pipe(
  Command.withDescription("Fetch, verify and cache the public gold and input files of the task editions."),
  Command.withSubcommands([fetch, status])
)
