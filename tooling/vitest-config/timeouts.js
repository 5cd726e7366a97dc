// Vitest's setup file (index.js): each test file's timeout, by the folder it is in. Run before each
// test file; Vitest resets the setting after the file. One table instead of a setting per Vitest
// project, because the whole suite is one project (index.js, `suite`).
import * as path from "node:path"
import { expect, vi } from "vitest"

const root = path.resolve(import.meta.dirname, "../..")

/** Test timeouts in ms by folder; any other folder's tests get 30 s. */
const timeouts = {
  // The CLI tests run the CLI in-process; a few spawn the real executable (through tsx), which on a
  // loaded two-core CI machine running other test files beside them can take ten seconds.
  "apps/cli": 180_000,
  // The tests score the shipped SICK example and spawn the bundled executable.
  "apps/report": 120_000,
  // The tests spawn the bundled service and stop it with signals.
  "apps/watcher": 120_000,
  // The test type-checks every @example of the API reference.
  "tooling/docgen": 180_000
}

const file = path.relative(root, expect.getState().testPath ?? "")
const folder = Object.keys(timeouts).find((f) => file.startsWith(`${f}/`))
vi.setConfig({ testTimeout: folder === undefined ? 30_000 : timeouts[folder] })
