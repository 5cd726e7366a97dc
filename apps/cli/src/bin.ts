#!/usr/bin/env node
// The entry of the stseval executable, and of its isolated scorers: the scoring engine starts this
// same file in worker threads to read and score runs (@stseval/scoring's Isolation), which then
// serve as scorers; otherwise it is the command line, loaded only then, so that a scorer starts
// without it.
import * as Isolation from "@stseval/scoring/Isolation"
import { scoringCommands } from "./scoringCommands.js"

const scoring = new Set(scoringCommands)

if (Isolation.isWorker()) {
  Isolation.serve()
} else {
  Isolation.useEntry(import.meta.url)
  // (in the executable, the scorer its loader started before the program: see scripts/bundle.ts)
  if (scoring.has(process.argv[2] ?? "") && !process.argv.includes("--help") && !process.argv.includes("-h")) Isolation.warm(Isolation.defaultBudget, 1)
  void import("./cli.js")
}
