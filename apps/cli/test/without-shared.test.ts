/**
 * README's test line on a fresh clone without `../shared` beside it (issue 32): a test file whose
 * tests all need the public data registers a skipped test that says so, instead of registering
 * none (Vitest fails such a file: "No test suite found"). Run here as Vitest itself runs it, with
 * STSEVAL_SHARED naming a folder that does not exist; `.ci/run` runs README's whole test line on
 * a clone with no `../shared` beside it.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { runProcess } from "@stseval/vitest-config/process"
import { repoRoot } from "./support/cli.js"

interface Report {
  readonly numFailedTestSuites: number
  readonly testResults: ReadonlyArray<{ readonly name: string; readonly status: string; readonly message: string; readonly assertionResults: ReadonlyArray<{ readonly title: string; readonly status: string }> }>
}

describe("without ../shared", () => {
  it("consistency-semrel.test.ts registers one skipped test naming the missing data, and the file passes", { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-without-shared-"))
    try {
      const out = path.join(dir, "report.json")
      const vitest = path.join(repoRoot, "node_modules/.bin/vitest")
      const result = await runProcess(vitest, ["run", "apps/cli/test/consistency-semrel.test.ts", "--reporter=json"], {
        cwd: repoRoot,
        env: { ...process.env, STSEVAL_SHARED: path.join(dir, "no-shared"), STSEVAL_VITEST_RESULTS: out }
      })
      expect(result.code, result.stdout + result.stderr).toBe(0)
      const report = JSON.parse(fs.readFileSync(out, "utf8")) as Report
      expect(report.numFailedTestSuites).toBe(0)
      const tests = report.testResults.flatMap((f) => f.assertionResults)
      expect(tests).toHaveLength(1)
      expect(tests[0].status).toBe("skipped")
      expect(tests[0].title).toContain(path.join(dir, "no-shared", "data"))
      expect(tests[0].title).toMatch(/skipped: .*not found/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
