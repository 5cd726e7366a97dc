#!/usr/bin/env node
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { teardown } from "@stseval/app/exit"
import { Effect } from "effect"
import { run } from "./Main.js"

run(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain({ teardown }))
