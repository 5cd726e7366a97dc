// Vitest's global setup: a temporary folder for the whole test run, named by STSEVAL_TEST_SCRATCH
// for every test, and removed at the end. For what a test worker makes once and keeps for every
// file it runs (a built executable): no file owns it, and a worker is ended without running its
// exit handlers.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export default function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-test-run-"))
  process.env.STSEVAL_TEST_SCRATCH = dir
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
