#!/usr/bin/env node
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { exitCodeOf } from "@stseval/app/exit"
import * as Isolation from "@stseval/scoring/Isolation"
import { Cause, Effect, Logger } from "effect"
import { run } from "./Main.js"

// The scoring engine starts this same file in worker threads to score runs in isolation: there it
// serves as a scorer (@stseval/scoring's Isolation).
if (Isolation.isWorker()) {
  Isolation.serve()
} else {
  Isolation.useEntry(import.meta.url)
  run(process.argv.slice(2)).pipe(
    Effect.provide(NodeServices.layer),
    // the watcher's log lines are the service's log: stdout, as a container's log collector reads it
    Effect.provideService(Logger.LogToStderr, false),
    NodeRuntime.runMain({
      // SIGTERM or SIGINT interrupts the watcher, which flushes its state and stops: a clean stop
      teardown: (exit, onExit) => onExit(exit._tag === "Failure" && Cause.hasInterruptsOnly(exit.cause) ? 0 : exitCodeOf(exit))
    })
  )
}
