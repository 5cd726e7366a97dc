#!/usr/bin/env node
// The entry of the stseval executable, and of its isolated scorers: the scoring engine starts this
// same file in worker threads to read and score runs (@stseval/scoring's Isolation), which then
// serve as scorers; otherwise it is the command line, loaded only then, so that a scorer starts
// without it.
import * as Isolation from "@stseval/scoring/Isolation"

/**
 * The commands that score runs. Their first scorer is started here, before the command line is
 * loaded: a scorer takes as long to start as the program (it loads the same file), and started
 * now it is ready about when the command has read its gold. (A command that ends up scoring
 * nothing, `--help` say, leaves it unused: it never keeps the process alive.)
 */
const scoring = new Set(["score", "rank", "report", "validate", "compare", "significance", "baseline", "watch", "codabench"])

if (Isolation.isWorker()) {
  Isolation.serve()
} else {
  Isolation.useEntry(import.meta.url)
  if (scoring.has(process.argv[2] ?? "") && !process.argv.includes("--help") && !process.argv.includes("-h")) Isolation.warm(Isolation.defaultBudget, 1)
  void import("./cli.js")
}
