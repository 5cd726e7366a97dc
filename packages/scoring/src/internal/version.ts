/**
 * The package's version, from its package.json: the one source of the version every signature
 * prints (`stseval-scoring@x.y.z`), so that a published package signs with the version it was
 * published as. Run from src/ or dist/ (both two levels below the package's folder) it reads the
 * package.json; a single-file program (tooling/bundle, and the tests' scorer build) has no
 * package.json beside it, so its bundler writes the version in as `STSEVAL_SCORING_VERSION`.
 */
import { createRequire } from "node:module"

declare const STSEVAL_SCORING_VERSION: string | undefined

export const version: string =
  typeof STSEVAL_SCORING_VERSION === "string" ? STSEVAL_SCORING_VERSION : (createRequire(import.meta.url)("../../package.json") as { readonly version: string }).version
