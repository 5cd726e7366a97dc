// Workspace packages export their sources under the "@stseval/source" condition, so tests
// run against src/ without a build step; published consumers get dist/ through "default".
import { availableParallelism } from "node:os"
import * as path from "node:path"
import { defineConfig, defineProject } from "vitest/config"

const conditions = ["@stseval/source", "import", "module", "node", "default"]

/** Each folder's test files, from the repository's root. */
const testFiles = (folder) => `${folder}/test/**/*.test.ts`

// What every test file gets, in the whole suite as in one folder's run.
const common = {
  environment: "node",
  // Test files share their workers' module graph instead of importing Effect and the packages
  // afresh for each file: the whole suite ran in a quarter of the time (65 s against 282 s, same
  // results). Tests must not depend on module state left by another file.
  isolate: false,
  // Two test files at a time at least. Vitest's default is one fewer than the cores, which on
  // the 2-core machines this runs on is one file at a time: 66-82 s for the suite, against
  // 38-51 s two at a time. No test depends on the machine's load: a test that must catch a
  // process mid-way has it stop and say so at that point (leaderboard's crash test), it does not
  // count on a window. `--maxWorkers` or VITEST_MAX_WORKERS on the command line still override it.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // each folder's test timeout (timeouts.js), set per test file; the engine's scorer (use-scorer.js)
  setupFiles: [path.join(import.meta.dirname, "timeouts.js"), path.join(import.meta.dirname, "use-scorer.js")],
  // once a run, in the whole suite as in one folder's: the engine's isolated scorer built from the
  // sources (scorer.js; without it each scorer loaded the sources through tsx, and leaderboard's
  // crash tests timed out in that folder's own run) and a temporary folder (scratch.js)
  globalSetup: [path.join(import.meta.dirname, "scorer.js"), path.join(import.meta.dirname, "scratch.js")]
}

/**
 * The whole suite, run from the repository's root (`pnpm test`): the test files of every folder
 * in ONE Vitest project. Vitest never lets two projects share a worker, so with a project per
 * package each package's files started new workers that imported Effect and the sources again,
 * and transformed them again (a Vite server per project): on two cores the suite ran in 217 s
 * with 13 projects against 181 s with one, the same tests passing.
 *
 * @param {ReadonlyArray<string>} folders the folders whose `test/**` files are run
 * @param {import("vitest/config").UserConfig["test"]} [test] the rest of the root's test settings
 */
export const suite = (folders, test = {}) =>
  defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ["@stseval/source"] } },
    test: { ...common, include: folders.map(testFiles), ...test }
  })

/**
 * One folder's tests alone, run from that folder (its vitest.config.ts): `pnpm vitest run` there.
 *
 * @param {string} name the project name shown in Vitest output
 */
export const project = (name) =>
  defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ["@stseval/source"] } },
    test: { ...common, name, include: ["test/**/*.test.ts"] }
  })
