/**
 * Builds `stseval-report`, `dist/stseval-report.mjs` (what `bin` points at): the report generator in ONE
 * file that runs with nothing but `node`, made by the apps' shared bundler (tooling/bundle), with
 * the scorer-only body (src/scorer.ts) its scorer threads run (`Bundle.appScript`).
 * `pnpm --filter @stseval/report bundle [outfile]`; `pnpm build` makes it too.
 */
import * as Bundle from "@stseval/bundle"
import * as Isolation from "@stseval/scoring/Isolation"

export const { bundle, defaultOutfile } = await Bundle.appScript("stseval-report", import.meta.url, Isolation.scorerThread)
