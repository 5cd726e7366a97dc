/**
 * Builds the `stseval` executable, `dist/stseval.mjs` (what `bin` points at): the whole command
 * line in ONE file that runs with nothing but `node`, e.g. inside a Codabench scoring program. The
 * bundler itself, shared by the three apps, is tooling/bundle (`@stseval/bundle`): how the file is
 * made and why it starts fast is described there.
 *
 *   import { bundle } from "../apps/cli/scripts/bundle.ts"
 *   await bundle({ outfile: "/tmp/stseval.mjs" })
 *
 * or from the shell: `pnpm --filter @stseval/cli bundle [outfile]` (`pnpm build` makes it too).
 *
 * @since 0.1.0
 */
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import * as Bundle from "@stseval/bundle"
import * as Isolation from "@stseval/scoring/Isolation"
import * as PageScripts from "../src/page/Scripts.js"
import { scoresAhead } from "../src/scoresAhead.js"

export { namesUsed } from "@stseval/bundle"
export type { BundleResult } from "@stseval/bundle"

const cliRoot = path.resolve(import.meta.dirname, "..")
// A scorer runs the scorer-only body (src/scorer.ts) the file also carries, not the whole program
// again, and keeps a code cache of its own (`Isolation.scorerThread`'s keys): see the changeset of
// issue 36 for what that saves. No scorer is started ahead of the program: small runs are scored on
// its own thread (@stseval/scoring's Isolation).
const app = {
  name: "stseval",
  packageDir: cliRoot,
  entry: "src/bin.ts",
  answersVersion: true,
  worker: { entry: "src/scorer.ts", ...Isolation.scorerThread, ahead: { ...Isolation.scorerThread.ahead, when: String(scoresAhead) } }
} as const

/**
 * Bundle the CLI into one executable file. `entry` (from the CLI's folder): another entry that
 * imports `src/bin.ts` first (a test's, to give the scorers another module).
 *
 * @since 0.1.0
 */
export const bundle = async (options: { readonly outfile: string; readonly minify?: boolean; readonly metafile?: boolean; readonly entry?: string }): Promise<Bundle.BundleResult> =>
  // the check page's scripts, built now: the executable carries them, not the bundler
  Bundle.bundle({ ...app, ...options, define: { STSEVAL_PAGE_SCRIPTS: JSON.stringify(PageScripts.packed(await PageScripts.build())) } })

/** Where `bin` points. */
export const defaultOutfile = path.join(cliRoot, "dist/stseval.mjs")

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await Bundle.main({ ...app, define: { STSEVAL_PAGE_SCRIPTS: JSON.stringify(PageScripts.packed(await PageScripts.build())) } }, defaultOutfile)
}
