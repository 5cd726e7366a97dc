/**
 * `--ci` through the command line (issue 15's target: under 2 s): `stseval rank --ci 95
 * --resamples 1000` on 100 runs x the 7 STS 2017 tracks x 250 pairs (synthetic gold and runs in a
 * temp folder), process start included, beside the same `rank` without `--ci`: the text table
 * (one Pearson pass: figures, aggregates, official, ranks) and `--json` (plus the Spearman pass,
 * every per-dataset Spearman with its interval). Times the single-file CLI, built here from the
 * sources into the temp folder (scripts/bundle.ts, as cli.bench.ts does), so that a stale
 * apps/cli/dist is never what is measured. Medians of 3 launches after one warm-up launch (which
 * fills the code cache): wall seconds, and CPU seconds (user + sys, from /usr/bin/time when
 * present) with the load average, since the machine is shared.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Registry } from "@stseval/formats"
import { bundle } from "../scripts/bundle.js"
import { time } from "./launch.js"

const RUNS = 100
const PAIRS = 250

/** Gold and 100 primary runs of every track, noise growing with the run number. */
const fixture = (): { readonly dir: string; readonly gold: string; readonly subs: string } => {
  const edition = Registry.get("sts2017")!
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-ci-bench-"))
  const gold = path.join(dir, "gold")
  const subs = path.join(dir, "subs")
  fs.mkdirSync(gold)
  let state = 2017
  const uniform = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
  for (const d of edition.datasets) {
    const g = Array.from({ length: PAIRS }, () => Math.round(uniform() * 500) / 100)
    fs.writeFileSync(path.join(gold, d.gold), g.map((x) => `${x}\n`).join(""))
    for (let k = 0; k < RUNS; k++) {
      const run = path.join(subs, `Team${String(k).padStart(3, "0")}_run1primary`)
      fs.mkdirSync(run, { recursive: true })
      const noise = 0.3 + (k / RUNS) * 2
      fs.writeFileSync(path.join(run, d.run), g.map((y) => `${(y + (uniform() - 0.5) * 2 * noise).toFixed(3)}\n`).join(""))
    }
  }
  return { dir, gold, subs }
}

export const run = async () => {
  const { dir, gold, subs } = fixture()
  try {
    const exe = path.join(dir, "stseval.mjs")
    await bundle({ outfile: exe })
    const name = "single-file CLI, built from the sources"
    const stseval = (args: ReadonlyArray<string>) => time(process.execPath, [exe, ...args], 3)
    const rank = ["rank", "--task", "sts2017", "--gold", gold, subs]
    const ci = ["--ci", "95", "--resamples", "1000"]
    const load = () => os.loadavg()[0].toFixed(1)
    const shape = { runs: RUNS, tracks: 7, pairs: PAIRS }
    return [
      { name: `rank, no --ci (${name})`, ...stseval(rank), ...shape, load: load() },
      { name: `rank --ci 95 --resamples 1000, text (${name})`, ...stseval([...rank, ...ci]), ...shape, target: "< 2 s", load: load() },
      { name: `rank --ci 95 --resamples 1000 --json, with Spearman (${name})`, ...stseval([...rank, ...ci, "--json"]), ...shape, load: load() }
    ]
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
