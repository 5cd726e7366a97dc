// Vitest's setup file (index.js): the scorer the global setup built (scorer.js, STSEVAL_TEST_SCORER)
// is the one the engine starts in this test worker, given as a program gives its own entry
// (Isolation.useEntry). Without it (Vitest run with another config) the engine starts its own entry.
import * as path from "node:path"
import { pathToFileURL } from "node:url"

const file = process.env.STSEVAL_TEST_SCORER
if (file !== undefined && file !== "") {
  // the module the tests import as @stseval/scoring/Isolation (its sources), so one engine state
  const Isolation = await import(path.resolve(import.meta.dirname, "../../packages/scoring/src/Isolation.ts"))
  Isolation.useEntry(pathToFileURL(file))
}
