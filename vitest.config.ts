import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "tooling/release", "tooling/docgen"],
    // the scoring engine's isolated scorer, built once from the sources for the whole run
    globalSetup: ["tooling/vitest-config/scorer.js"],
    // How many test files run at a time (two at least) is set in each project, by the shared
    // `project()` of tooling/vitest-config: a `maxWorkers` here would not reach the projects.
    // The JSON report is what .ci/run reads to print its "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]]
  }
})
