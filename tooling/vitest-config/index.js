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
      testTimeout: options.testTimeout ?? 30_000
    }
  })
