import { createRequire } from "node:module"

// package.json sits one level above both src/ (development) and dist/ (published).
const pkg = createRequire(import.meta.url)("../package.json") as { readonly version: string }

/** The version of the stseval command line, printed by `--version` and in reproducibility signatures. */
export const version: string = pkg.version
