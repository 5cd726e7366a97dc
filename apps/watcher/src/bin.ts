#!/usr/bin/env node
import * as NodeServices from "@effect/platform-node/NodeServices"
import { teardown } from "@stseval/app/exit"
import { runMain } from "@stseval/app/signals"
import * as Isolation from "@stseval/scoring/Isolation"
import { Effect, Logger } from "effect"
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
    // SIGTERM or SIGINT interrupts the watcher, which flushes its state and stops; the CLI's stop
    // rule (@stseval/app/signals): exit 143 after SIGTERM, 130 after SIGINT, and no clean-up waited
    // for more than a second after the signal
    runMain({ teardown })
  )
}
