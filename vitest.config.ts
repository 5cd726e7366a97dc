import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
    // The JSON report is what .ci/run reads to print its "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]]
  }
})
