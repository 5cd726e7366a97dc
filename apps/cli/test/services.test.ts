import { Effect, Terminal } from "effect"
import { describe, expect, it } from "vitest"
import { services } from "../src/internal/Services.js"

describe("the Node services the commands run with (internal/Services.ts)", () => {
  it("make the terminal on first use, and it works: its width is the output's, 0 off a terminal", async () => {
    const columns = await Effect.runPromise(
      Effect.gen(function*() {
        const terminal = yield* Terminal.Terminal
        return [yield* terminal.columns, yield* terminal.columns]
      }).pipe(Effect.provide(services), Effect.scoped)
    )
    expect(columns).toEqual([process.stdout.columns ?? 0, process.stdout.columns ?? 0])
  })

  it("die if a command ever spawns a process (none does; effect/cli only lists the spawner)", async () => {
    const { ChildProcessSpawner } = await import("effect/process")
    const exit = await Effect.runPromiseExit(
      Effect.gen(function*() {
        const spawner = yield* ChildProcessSpawner.ChildProcessSpawner
        return yield* spawner.spawn(undefined as never)
      }).pipe(Effect.provide(services), Effect.scoped)
    )
    expect(exit._tag).toBe("Failure")
  })
})
