#!/usr/bin/env node
// The entry of the stseval executable, and of its isolated scorers: the scoring engine starts this
// same file in worker threads to read and score runs (@stseval/scoring's Isolation), which then
// serve as scorers; otherwise it is the command line, loaded only then, so that a scorer starts
// without it.
import * as Isolation from "@stseval/scoring/Isolation"

if (Isolation.isWorker()) {
  Isolation.serve()
} else {
  Isolation.useEntry(import.meta.url)
  // (no scorer started ahead: small runs are scored on this thread, a scorer only for a larger one)
  void import("./cli.js")
}
