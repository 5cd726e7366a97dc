// Vitest's global setup: the scoring engine's isolated scorer (@stseval/scoring's Isolation) built
// from the sources into one file for this test run, named by STSEVAL_TEST_SCORER for every test
// file (use-scorer.js gives it to the engine with Isolation.useEntry) and every process a test
// starts that is made to use it (a test fixture reads it; the engine itself reads no variable).
// Without it a scorer would load the TypeScript sources through tsx in each worker thread: two or
// three seconds and about 100 MB a scorer, where the built file starts in a tenth of that and holds
// what a user's scorer holds (so that tests of the memory budget measure what users get).
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { buildForNode } from "./build.js"

const root = path.resolve(import.meta.dirname, "../..")

export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-test-scorer-"))
  process.env.STSEVAL_TEST_SCORER = await buildForNode(path.join(root, "packages/scoring/src/internal/entry.ts"), path.join(dir, "scorer.mjs"))
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
