import { createRequire } from "node:module"

/**
 * Set by the bundler (scripts/bundle.ts) to the package's version: the bundled executable has no
 * package.json beside it. Undefined when running from src/ or dist/.
 */
declare const STSEVAL_BUNDLED_VERSION: string | undefined

/** The version of the stseval command line, printed by `--version` and in reproducibility signatures. */
export const version: string =
  typeof STSEVAL_BUNDLED_VERSION === "string"
    ? STSEVAL_BUNDLED_VERSION
    // package.json sits one level above both src/ (development) and dist/ (tsc's output).
    : (createRequire(import.meta.url)("../package.json") as { readonly version: string }).version
