import { appVersion, bundled as isBundled } from "@stseval/app/version"

/** The version of the stseval command line, printed by `--version` and in reproducibility signatures. */
export const version: string = appVersion(import.meta.url)

/**
 * True when this program is the single-file CLI (`stseval.mjs`, tooling/bundle): then
 * `import.meta.url` anywhere in it is the URL of that one file.
 */
export const bundled: boolean = isBundled
