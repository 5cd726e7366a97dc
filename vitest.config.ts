import { suite } from "@stseval/vitest-config"

// Every folder's tests in one Vitest project, so that the two workers share one module graph
// (tooling/vitest-config, `suite`). One folder's tests alone: `pnpm vitest run apps/cli`, or
// `pnpm vitest run` in that folder (its own vitest.config.ts).
export default suite(["packages/*", "apps/*", "tooling/release", "tooling/docgen", "tooling/eslint-config"], {
  // The JSON report is what .ci/run reads to print its "N passed, N failed" line; a test that runs
  // Vitest itself names another file (STSEVAL_VITEST_RESULTS), so as not to overwrite the suite's.
  reporters: ["default", ["json", { outputFile: process.env["STSEVAL_VITEST_RESULTS"] ?? ".vitest-results.json" }]]
})
