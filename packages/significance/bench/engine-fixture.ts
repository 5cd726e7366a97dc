// Writes test/fixtures/engine-before-34.json: every interval bound, rank interval, p-value and
// estimate that test/Engine34.test.ts compares against, computed by the resampling engines as they
// were BEFORE issue 34 (base commit 5665571, with its kernel-per-metric engines). The rule:
// with the same draws, the one engine gives every figure to 1e-12 relative. Re-running this script
// after issue 34 regenerates the file from the new engine, which defeats the check: don't.
// Run: node --conditions=@stseval/source --import tsx packages/significance/bench/engine-fixture.ts
import * as fs from "node:fs"
import * as path from "node:path"
import { bootstrapRecord, engineCases, intervalsRecord, permutationRecord } from "../test/engineCases.js"

const out: Record<string, unknown> = {}
for (const c of engineCases.bootstrap) out[`bootstrap ${c.name}`] = bootstrapRecord(c)
for (const c of engineCases.permutation) out[`permutation ${c.name}`] = permutationRecord(c)
for (const c of engineCases.intervals) out[`intervals ${c.name}`] = intervalsRecord(c)
const file = path.join(import.meta.dirname, "../test/fixtures/engine-before-34.json")
fs.writeFileSync(file, `${JSON.stringify(out)}\n`)
console.log(`wrote ${file}: ${Object.keys(out).length} cases`)
