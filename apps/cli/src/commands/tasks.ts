import { Console, Effect } from "effect"
import { Command } from "effect/cli"
import { Registry } from "@stseval/formats"
import * as Flags from "../internal/Flags.js"
import * as TextTable from "../internal/TextTable.js"
import * as Style from "../internal/Style.js"

const describeRanking = (e: Registry.TaskEdition) =>
  e.ranking.map((r) => `${r.subtask}: ${r.metric} (${r.aggregate})`).join("; ")

export const tasks = Command.make(
  "tasks",
  { json: Flags.json },
  Effect.fn(function*({ json }) {
    const c = yield* Style.Colour
    if (json) {
      yield* Console.log(JSON.stringify(Registry.builtin, null, 2))
      return
    }
    const rows = Registry.builtin.map((e) => [
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
    yield* Console.log("\nA user edition is a JSON or YAML file (docs/task-registry.md); pass its path to --task.")
  })
).pipe(Command.withDescription("List the task editions the registry knows (datasets, scale, run limit, official ranking)."))
