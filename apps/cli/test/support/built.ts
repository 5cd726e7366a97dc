/**
 * The single-file CLI (`stseval.mjs`) built from the sources by the repository's own bundle
 * function (scripts/bundle.ts, what `pnpm build` runs) into a temporary folder outside the
 * repository: once per test worker for every test file that runs it (the CLI's, and the Codabench
 * package's), instead of once per file (a second and a half each). Tests copy it where they need
 * it elsewhere. It is made in the test run's temporary folder (STSEVAL_TEST_SCRATCH, Vitest's
 * global setup tooling/vitest-config/scratch.js), which goes at the end of the run.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bundle } from "../../scripts/bundle.js"

let built: Promise<string> | undefined

/** The built CLI's path; the file must not be changed (copy it first). */
export const builtCli = (): Promise<string> =>
  (built ??= (async () => {
    const dir = fs.mkdtempSync(path.join(process.env["STSEVAL_TEST_SCRATCH"] ?? os.tmpdir(), "stseval-cli-built-"))
    return (await bundle({ outfile: path.join(dir, "stseval.mjs") })).outfile
  })())
