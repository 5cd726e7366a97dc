import { Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"

export const tasks = Command.make(
  "tasks",
  { json: Flag.Boolean("json").pipe(Flag.withDescription("Print JSON"), Flag.withDefault(false)) },
  Effect.fn(function*({ json }) {
    yield* Console.log(json ? "[]" : "no tasks")
  })
).pipe(Command.withDescription("List the task editions the registry knows."))
