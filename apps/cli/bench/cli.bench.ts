/**
 * What a user waits for, side by side in one run, as ratios (stseval / the alternative; below 1 is
 * faster). Every stseval figure is the BUNDLED executable (scripts/bundle.ts, built here into a temp
 * folder) started as a process, so start-up is included; wall-clock medians of a few launches after
 * one warm-up launch (which also fills the code cache, as any second use does; the cold first start
 * is reported on its own). Each ratio's two programs are launched in turns (launch.ts: sideBySide),
 * so that a change in the machine's speed during the bench weighs on both alike.
 *
 * (a) `stseval score` on one SICK-test run against R doing the official scorer's computation on the
 *     same files (sick_score.R), when Rscript is installed (apt-get install r-base-core).
 * (b) `stseval significance --against all --test bootstrap` (10,000 resamples) against NumPy in its
 *     best formulation (packages/significance/bench/numpy_bootstrap.py: counts per block of
 *     resamples, one batched GEMM against the runs' sufficient statistics, 2 BLAS threads), both
 *     reading the same run files: 44 STS 2017 runs x 7 tracks, and 20 SICK-test runs x 4,927 pairs.
 * (c) the same for 200 STS Benchmark test runs (19,900 pairs of runs).
 * plus `stseval rank` of 1,000 STS-B runs in one call. STS jobs need ../shared/data; the runs are
 * the gold plus seeded noise, written into a temp folder.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Sts, StsBenchmark, Text } from "@stseval/formats"
import { bundle } from "../scripts/bundle.js"
import { launch, median, sideBySide, time } from "./launch.js"
import type { Program } from "./launch.js"

const root = path.resolve(import.meta.dirname, "../../..")
const sickGold = path.join(root, "examples/sick2014/SICK_test_annotated.txt")
const sickRun = path.join(root, "examples/sick2014/submissions/MeaningFactory_run1primary.txt")
const shared = path.resolve(root, "../shared/data")
const stsbGold = path.join(shared, "stsbenchmark/sts-test.csv")
const sts2017Gold = path.join(shared, "sts2017/gold")
const numpyScript = path.join(root, "packages/significance/bench/numpy_bootstrap.py")

type Row = Record<string, unknown>

const has = (command: string, args: ReadonlyArray<string>): boolean => {
  try {
    execFileSync(command, args, { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

/** NumPy as the bench runs it: two BLAS threads, and OpenBLAS choosing its own kernel. */
const numpyEnv: NodeJS.ProcessEnv = { OPENBLAS_NUM_THREADS: "2", OMP_NUM_THREADS: "2", OPENBLAS_CORETYPE: undefined, OPENBLAS_L2_SIZE: undefined }

// seeded uniform noise, the same in every bench run
const noiseSource = (seed: number) => {
  let state = seed
  return () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32)
}
const noisy = (gold: ReadonlyArray<number>, k: number, uniform: () => number, lo: number, hi: number) => {
  const noise = 0.5 + (k % 10) / 5
  return gold.map((y) => Math.min(hi, Math.max(lo, y + (uniform() - 0.5) * 2 * noise)))
}
const team = (k: number) => `Team${String(k).padStart(4, "0")}_run1primary`

/** `count` SICK runs (tab-separated, with the header) in `dir`; returns their paths. */
const sickRuns = (dir: string, count: number): Array<string> => {
  const [header, ...lines] = fs.readFileSync(sickGold, "utf8").split(/\r?\n/).filter((l) => l !== "")
  const names = header.split("\t")
  const rows = lines.map((l) => l.split("\t"))
  const id = names.indexOf("pair_ID")
  const rel = names.indexOf("relatedness_score")
  const ent = names.indexOf("entailment_judgment")
  const uniform = noiseSource(11)
  return Array.from({ length: count }, (_, k) => {
    const scores = noisy(rows.map((r) => Number(r[rel])), k, uniform, 1, 5)
    const file = path.join(dir, `${team(k)}.txt`)
    fs.writeFileSync(file, `pair_ID\tentailment_judgment\trelatedness_score\n${rows.map((r, i) => `${r[id]}\t${r[ent]}\t${scores[i]}`).join("\n")}\n`)
    return file
  })
}

/** `count` STS 2017 runs (a folder of the 7 track files each) in `dir`; returns their folders. */
const sts2017Runs = (dir: string, count: number): Array<string> => {
  const tracks = fs.readdirSync(sts2017Gold).filter((f) => f.startsWith("STS.gs.")).map((f) => f.slice("STS.gs.".length))
  const uniform = noiseSource(13)
  return Array.from({ length: count }, (_, k) => {
    const run = path.join(dir, team(k))
    fs.mkdirSync(run, { recursive: true })
    for (const t of tracks) {
      const gold = fs.readFileSync(path.join(sts2017Gold, `STS.gs.${t}`), "utf8").split(/\r?\n/).slice(0, -1).map(Number)
      fs.writeFileSync(path.join(run, `STS.output.${t}`), Sts.writeOutput(noisy(gold, k, uniform, 0, 5)))
    }
    return run
  })
}

/** `count` STS-B test runs in `dir`; returns their paths. */
const stsbRuns = (dir: string, count: number): Array<string> => {
  const gold = StsBenchmark.parse(Text.decode(fs.readFileSync(stsbGold), stsbGold).value).value.rows.map((r) => r.score)
  const uniform = noiseSource(7)
  return Array.from({ length: count }, (_, k) => {
    const file = path.join(dir, `${team(k)}.txt`)
    fs.writeFileSync(file, Sts.writeOutput(noisy(gold, k, uniform, 0, 5)))
    return file
  })
}

/** The estimates a significance --json document ranks, best first. */
const estimatesOf = (json: string): Array<number> =>
  (JSON.parse(json) as { ranking: ReadonlyArray<{ estimate: number }> }).ranking.map((r) => r.estimate)

export const run = async (): Promise<Array<Row>> => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-bench-"))
  const rows: Array<Row> = []
  try {
    const exe = path.join(work, "stseval.mjs")
    await bundle({ outfile: exe })
    const node = process.execPath
    const stseval = (args: ReadonlyArray<string>, repeats: number) => time(node, [exe, ...args], repeats, { TMPDIR: work }).seconds
    rows.push({ name: `machine: Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}` })

    // (a) score one SICK run
    const score = ["score", "--task", "sick2014", "--gold", sickGold, sickRun, "--json"]
    const cold = median(Array.from({ length: 3 }, () => launch(node, [exe, ...score], { TMPDIR: work, NODE_DISABLE_COMPILE_CACHE: "1" }).seconds))
    const version = stseval(["--version"], 7)
    const hasR = has("Rscript", ["--version"])
    const rScore: Program = { command: "Rscript", args: [path.join(import.meta.dirname, "sick_score.R"), sickRun, sickGold] }
    const [oursTimes, rTimes] = hasR ? sideBySide({ command: node, args: [exe, ...score], env: { TMPDIR: work } }, rScore, 11) : [time(node, [exe, ...score], 11, { TMPDIR: work }), undefined]
    const ours = oursTimes.seconds
    const r = rTimes?.seconds ?? Number.NaN
    rows.push({ job: "(a) stseval --version", stseval: version })
    rows.push({ job: "(a) score one SICK-test run (4,927 pairs), no code cache (first start)", stseval: cold, R: r, ratio: cold / r })
    rows.push({ job: "(a) score one SICK-test run (4,927 pairs)", stseval: ours, R: r, ratio: ours / r, ...(hasR ? {} : { note: "R skipped: no Rscript (apt-get install r-base-core)" }) })

    // (b), (c) all-pairs bootstrap against NumPy
    const hasNumpy = has("python3", ["-c", "import numpy"])
    const significance = (job: string, edition: string, gold: string, folder: string, mode: string, numpyFiles: ReadonlyArray<string>, repeats: number) => {
      const args = ["significance", "--task", edition, "--gold", gold, folder, "--against", "all", "--test", "bootstrap", "--json"]
      const row: Row = { job }
      if (hasNumpy) {
        const numpyArgs = [numpyScript, mode, gold, ...numpyFiles]
        const [mineTimes, npTimes] = sideBySide({ command: node, args: [exe, ...args], env: { TMPDIR: work } }, { command: "python3", args: numpyArgs, env: numpyEnv }, repeats)
        const mine = mineTimes.seconds
        const np = npTimes.seconds
        row.stseval = mine
        // the same work: NumPy's estimates are stseval's
        const theirs = (JSON.parse(launch("python3", numpyArgs, numpyEnv).stdout) as { estimates: Array<number> }).estimates.sort((a, b) => b - a)
        const same = estimatesOf(launch(node, [exe, ...args], { TMPDIR: work }).stdout).every((e, i) => Math.abs(e - theirs[i]) < 1e-9)
        Object.assign(row, { numpy: np, ratio: mine / np, sameEstimates: same })
      } else Object.assign(row, { stseval: stseval(args, repeats), note: "NumPy skipped: python3 cannot import numpy" })
      rows.push(row)
    }
    const sickDir = path.join(work, "sick20")
    fs.mkdirSync(sickDir)
    const sick = sickRuns(sickDir, 20)
    if (fs.existsSync(sts2017Gold)) {
      const dir = path.join(work, "sts44")
      const runs = sts2017Runs(dir, 44)
      significance("(b) significance --against all, bootstrap 10,000: 44 STS 2017 runs x 7 tracks", "sts2017", sts2017Gold, dir, "sts2017", runs, 3)
    } else rows.push({ job: "(b) 44 STS 2017 runs: skipped (needs ../shared/data/sts2017/gold)" })
    significance("(b) significance --against all, bootstrap 10,000: 20 SICK-test runs x 4,927 pairs", "sick2014", sickGold, sickDir, "sick", sick, 3)
    if (fs.existsSync(stsbGold)) {
      const dir = path.join(work, "stsb200")
      fs.mkdirSync(dir)
      const runs = stsbRuns(dir, 200)
      significance("(c) significance --against all, bootstrap 10,000: 200 STS-B test runs (19,900 pairs of runs)", "stsb", stsbGold, dir, "stsb", runs, 3)
      const many = path.join(work, "stsb1000")
      fs.mkdirSync(many)
      stsbRuns(many, 1000)
      rows.push({ job: "rank 1,000 STS-B test runs in one call", stseval: stseval(["rank", "--task", "stsb", "--gold", stsbGold, many, "--json"], 3) })
    } else rows.push({ job: "(c) 200 STS-B runs and rank of 1,000: skipped (needs ../shared/data/stsbenchmark)" })
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
  return rows
}
