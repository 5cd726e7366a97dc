import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
    // `pnpm test` runs `vitest run --maxWorkers=100%`: one test file per core. Vitest's default
    // leaves a core to its main process, which on a 2-core machine ran the files one at a time
    // (82 s, against 45 s with both cores). Set on the command line because this key did not reach
    // the projects' pool here.
    // The JSON report is what .ci/run reads to print its "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]]
  }
})
