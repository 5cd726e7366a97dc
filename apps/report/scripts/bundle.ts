/**
 * Builds `stseval-report`, `dist/stseval-report.mjs` (what `bin` points at): the report generator in
 * ONE file that runs with nothing but `node`, made by the apps' shared bundler (tooling/bundle).
 * `pnpm --filter @stseval/report bundle [outfile]`; `pnpm build` makes it too.
 */
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import * as Bundle from "@stseval/bundle"
import * as Isolation from "@stseval/scoring/Isolation"

const root = path.resolve(import.meta.dirname, "..")
// A scorer thread runs the scorer-only body the file also carries (src/scorer.ts), not the whole
// program again, and keeps a code cache of its own (`Isolation.scorerThread`'s keys), as the stseval
// executable's do.
const app = {
  name: "stseval-report",
  packageDir: root,
  entry: "src/bin.ts",
  worker: { entry: "src/scorer.ts", ...Isolation.scorerThread }
} as const

/** Bundle the report generator into one executable file. */
export const bundle = (options: { readonly outfile: string; readonly minify?: boolean }): Promise<Bundle.BundleResult> => Bundle.bundle({ ...app, ...options })

/** Where `bin` points. */
export const defaultOutfile = path.join(root, "dist/stseval-report.mjs")

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await Bundle.main(app, defaultOutfile)
}
