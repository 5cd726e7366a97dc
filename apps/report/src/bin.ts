#!/usr/bin/env node
import * as NodeServices from "@effect/platform-node/NodeServices"
import { teardown } from "@stseval/app/exit"
import { runMain } from "@stseval/app/signals"
import * as Isolation from "@stseval/scoring/Isolation"
import { Effect } from "effect"
import { run } from "./Main.js"

// The scoring engine starts this same file in worker threads to score runs in isolation: there it
// serves as a scorer (@stseval/scoring's Isolation).
if (Isolation.isWorker()) {
  Isolation.serve()
} else {
  Isolation.useEntry(import.meta.url)
  run(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer), runMain({ teardown }))
}
