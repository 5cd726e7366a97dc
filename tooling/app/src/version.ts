/**
 * The version of an app, at run time: the bundler (tooling/bundle: `bundle`, `versionGlobal`) writes it into the
 * single-file executable, which has no package.json beside it; run from its sources, the app reads
 * its package.json. One place for both sides of that contract.
 *
 * @since 0.2.0
 */
import { createRequire } from "node:module"

declare const STSEVAL_BUNDLED_VERSION: string | undefined

/**
 * True inside a single-file executable made by `bundle` (then `import.meta.url` anywhere in it is
 * the URL of that one file).
 *
 * @since 0.2.0
 */
export const bundled: boolean = typeof STSEVAL_BUNDLED_VERSION === "string"

/**
 * The app's version: the bundled one, else the `version` of the package.json one folder above the
 * calling module (`src/` and `dist/` both sit one level below it).
 *
 * @since 0.2.0
 */
export const appVersion = (importMetaUrl: string): string =>
  typeof STSEVAL_BUNDLED_VERSION === "string"
    ? STSEVAL_BUNDLED_VERSION
    : (createRequire(importMetaUrl)("../package.json") as { readonly version: string }).version
