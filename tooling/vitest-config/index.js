// Workspace packages export their sources under the "@stseval/source" condition, so tests
// run against src/ without a build step; published consumers get dist/ through "default".
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
      testTimeout: options.testTimeout ?? 30_000
    }
  })
