// Vitest's global setup: the scoring engine's isolated scorer (@stseval/scoring's Isolation) built
// from the sources into one file for this test run, named by STSEVAL_SCORING_WORKER for every test
// (and every process a test starts). Without it a scorer would load the TypeScript sources
// through tsx in each worker thread: two or three seconds and about 100 MB a scorer, where the
// built file starts in a tenth of that and holds what a user's scorer holds (so that tests of the
// memory budget measure what users get).
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as esbuild from "esbuild"

const root = path.resolve(import.meta.dirname, "../..")

export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-test-scorer-"))
  const outfile = path.join(dir, "scorer.mjs")
  await esbuild.build({
    entryPoints: [path.join(root, "packages/scoring/src/internal/entry.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    conditions: ["@stseval/source"],
    outfile,
    // CommonJS libraries in an ES module need a require
    banner: { js: "import { createRequire as __stsevalRequire } from 'node:module'; const require = __stsevalRequire(import.meta.url);" },
    logLevel: "silent"
  })
  process.env.STSEVAL_SCORING_WORKER = outfile
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
