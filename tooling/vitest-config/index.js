// Workspace packages export their sources under the "@stseval/source" condition, so tests
// run against src/ without a build step; published consumers get dist/ through "default".
import { availableParallelism } from "node:os"
import { defineProject } from "vitest/config"

const conditions = ["@stseval/source", "import", "module", "node", "default"]

/**
 * @param {string} name the project name shown in Vitest output
 * @param {{ testTimeout?: number }} [options] overrides, e.g. a longer timeout for tests that spawn processes
 */
export const project = (name, options = {}) =>
  defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ["@stseval/source"] } },
    test: {
      name,
      include: ["test/**/*.test.ts"],
      environment: "node",
      // Test files of a project share their workers' module graph instead of importing Effect and
      // the packages afresh for each file: the whole suite ran in a quarter of the time (65 s
      // against 282 s, same results). Tests must not depend on module state left by another file.
      isolate: false,
      // Two test files at a time at least. Vitest's default is one fewer than the cores, which on
      // the 2-core machines this runs on is one file at a time: 66-82 s for the suite, against
      // 38-51 s two at a time. No test depends on the machine's load: a test that must catch a
      // process mid-way has it stop and say so at that point (leaderboard's crash test), it does not
      // count on a window. Set in each project, not in the root config: a root `maxWorkers` does
      // not reach the projects (each resolves its own), and projects that share one pool must have
      // the same value. `--maxWorkers` or VITEST_MAX_WORKERS on the command line still override it.
      maxWorkers: Math.max(2, availableParallelism() - 1),
      testTimeout: options.testTimeout ?? 30_000
    }
  })
