// One file from a TypeScript entry and the sources it imports (esbuild, the "@stseval/source"
// condition), for what the tests run in other threads and processes: such a file starts in a
// tenth of the time the sources take through tsx (two or three seconds a process on the two-core
// machines the suite runs on).
import * as fs from "node:fs"
import * as path from "node:path"
import * as esbuild from "esbuild"

// the scoring engine's version, which a bundle cannot read from its package.json (@stseval/scoring's internal/version.ts)
const scoringVersion = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../packages/scoring/package.json"), "utf8")).version

/**
 * Bundle `entry` into `outfile`, an ES module for Node with nothing to resolve.
 *
 * @param {string} entry
 * @param {string} outfile
 * @returns {Promise<string>} outfile
 */
export const buildForNode = async (entry, outfile) => {
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    conditions: ["@stseval/source"],
    outfile,
    define: { STSEVAL_SCORING_VERSION: JSON.stringify(scoringVersion) },
    // CommonJS libraries in an ES module need a require
    banner: { js: "import { createRequire as __stsevalRequire } from 'node:module'; const require = __stsevalRequire(import.meta.url);" },
    logLevel: "silent"
  })
  return outfile
}
