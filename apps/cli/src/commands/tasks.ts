import { Console, Effect, Option } from "effect"
import { Argument, Command } from "effect/cli"
import { Registry } from "@stseval/formats"
import { UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as TextTable from "../internal/TextTable.js"
import * as Colour from "../internal/Colour.js"

const describeRanking = (e: Registry.TaskEdition) =>
  e.ranking.map((r) => `${r.subtask}: ${r.metric} (${r.aggregate})`).join("; ")

/** Where an edition comes from, one line each: its paper, the data's licence and revision, the address. */
const provenance = (e: Registry.TaskEdition): ReadonlyArray<string> => {
  const citation = Registry.citationOf(e)
  return [
    ...(citation !== undefined ? [`cite: ${citation.text} [${citation.key}]`] : []),
    ...(e.reference !== undefined ? [`reference: ${e.reference}`] : []),
    ...(e.license !== undefined ? [`licence: ${e.license}`] : []),
    ...(e.revision !== undefined ? [`data revision: ${e.revision}`] : [])
  ]
}

const edition = Argument.String("edition").pipe(
  Argument.withDescription("One edition to describe: a built-in id or the path of an edition file (extends resolved); default: every built-in edition"),
  Argument.optional
)

export const tasks = Command.make(
  "tasks",
  { json: Flags.json, edition },
  Effect.fn(function*({ json, edition }) {
    const c = yield* Colour.Colour
    const editions = Option.isSome(edition)
      ? [yield* Registry.resolve(edition.value).pipe(Effect.mapError((e) => new UsageError({ message: e.message })))]
      : Registry.builtin
    if (json) {
      yield* Console.log(JSON.stringify(Option.isSome(edition) ? editions[0] : editions, null, 2))
      return
    }
    const rows = editions.map((e) => [
      e.id,
      e.title,
      String(e.datasets.length),
      `${e.scale.min}-${e.scale.max}`,
      String(e.runLimit),
      describeRanking(e)
    ])
    yield* Console.log(
      TextTable.render(
        [
          { header: "edition" },
          { header: "title" },
          { header: "datasets", align: "right" },
          { header: "scale", align: "right" },
          { header: "runs/team", align: "right" },
          { header: "ranking" }
        ],
        rows,
        c
      )
    )
    // provenance, as MTEB's task metadata: the paper to cite, the data's licence and revision
    const sources = editions.flatMap((e) => {
      const lines = provenance(e)
      return lines.length > 0 ? ["", `${e.id}:`, ...lines.map((l) => `  ${l}`)] : []
    })
    if (sources.length > 0) yield* Console.log(["", "Sources", ...sources.slice(1)].join("\n"))
    if (Option.isNone(edition)) yield* Console.log("\nA user edition is a JSON or YAML file (docs/task-registry.md); pass its path to --task, or to `stseval tasks` to see it.")
  })
).pipe(
  Command.withDescription(
    "List the task editions the registry knows (datasets, scale, run limit, official ranking) and where each comes from (the paper to cite, the data's licence and revision); with an edition id or file, that edition alone."
  )
)
