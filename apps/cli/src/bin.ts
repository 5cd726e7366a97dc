#!/usr/bin/env node
// The entry of the stseval executable, and of its isolated scorers: the scoring engine starts this
// same file in worker threads to read and score runs (@stseval/scoring's Isolation), which then
// serve as scorers; otherwise it is the command line, loaded only then, so that a scorer starts
// without it.
import * as Isolation from "@stseval/scoring/Isolation"
import { scoresAhead } from "./scoresAhead.js"

if (Isolation.isWorker()) {
  Isolation.serve()
} else {
  Isolation.useEntry(import.meta.url)
  // A command that scores a folder of many runs has its first scorer started now (in the bundle, by
  // its loader, before the program is read), to overlap the command line's own start (100-300 ms
  // before its scoring starts); a few small runs are scored on this thread, and get none.
  if (scoresAhead(process.argv.slice(2))) Isolation.warm(process.argv.slice(3))
  void import("./cli.js")
}
