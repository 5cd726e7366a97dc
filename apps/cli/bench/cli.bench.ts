/**
 * Issue 26's table: what a user waits for, side by side with the programs a user would otherwise
 * pick (the yardsticks in ../shared/perf, each in its fastest plain NumPy or R form; see the README
 * there), as ratios (stseval / the alternative; below 1 is faster) and against the issue's goals.
 *
 * Every stseval figure is the BUNDLED executable (scripts/bundle.ts, built here into a temp folder,
 * or the one STSEVAL_BENCH_EXE names, e.g. a build of main to compare with) started as a process, so
 * start-up is included: wall-clock medians of a few launches after one warm-up launch (which also
 * fills the code cache, as any second use does), with the median peak resident memory (from
 * /usr/bin/time). Each ratio's two programs are launched in turns (launch.ts: sideBySide), so that
 * a change in the machine's speed during the bench weighs on both alike.
 *
 *   score       `stseval score` of one SICK-test run  vs  `Rscript sick_cor.R RUN GOLD`
 *   allpairs a  `significance --against all --test bootstrap` (10,000 resamples), 44 STS 2017 runs
 *               x 7 tracks  vs  `np_allpairs.py a --workers 2` (OpenBLAS on one thread per worker)
 *   allpairs b  the same, 20 SICK-test runs  vs  `np_allpairs.py b`
 *   rank --ci   `rank --ci 95` of 2,000 STS-B test runs  vs  `np_ci.py` (2 BLAS threads)
 *   against the issue's goals: `rank --ci 95 --json` (adds the Spearman intervals; in turns with
 *   `np_ci.py`, whose seconds say how fast the machine was), and alone `rank` without intervals
 *   and `significance --against all` of 500 STS-B runs (the size of its JSON too). Each stseval
 *   figure has its CPU seconds beside it: the same work, so a turn with more says a slower machine.
 *
 * The all-pairs runs are gen_bench.py's (seeded NumPy); the STS-B runs are the gold plus seeded
 * uniform noise, written here. Both are kept in .bench/data (made once, remade when the generator
 * changes). `pnpm bench cli --fast` is a smoke run: 200 and 50 STS-B runs instead of 2,000 and 500,
 * one launch per figure. A yardstick that cannot run (no Rscript, no NumPy, no ../shared) leaves
 * its row with stseval's figure alone and a note.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Sts, StsBenchmark, Text } from "@stseval/formats"
import { bundle } from "../scripts/bundle.js"
import { launch, sideBySide, time } from "./launch.js"
import type { Program, Timing } from "./launch.js"

const root = path.resolve(import.meta.dirname, "../../..")
/** ../shared beside the checkout (as CI lays it), or beside a folder above it (a git worktree); STSEVAL_SHARED overrides. */
export const shared =
  process.env.STSEVAL_SHARED ??
  [path.resolve(root, "../shared"), path.resolve(root, "../../shared")].find((dir) => fs.existsSync(path.join(dir, "data"))) ??
  path.resolve(root, "../shared")
const perf = path.join(shared, "perf")
const data = path.join(shared, "data")
const sickGold = path.join(root, "examples/sick2014/SICK_test_annotated.txt")
const sickRun = path.join(root, "examples/sick2014/submissions/MeaningFactory_run1primary.txt")
const stsbGold = path.join(data, "stsbenchmark/sts-test.csv")
const sts2017Gold = path.join(data, "sts2017/gold")
const sickTestGold = path.join(data, "sick2014/SICK_test_annotated.txt")
const cache = path.join(root, ".bench/data")

type Row = Record<string, unknown>

/** Whether `command args` runs (a yardstick's interpreter is installed). */
export const has = (command: string, args: ReadonlyArray<string>): boolean => {
  try {
    execFileSync(command, args, { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

/** Bumped when the STS-B runs written here change, so that a cached folder is remade. */
const GENERATOR = 1

// seeded uniform noise, the same in every bench run
const noiseSource = (seed: number) => {
  let state = seed
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
}

/**
 * `count` STS-B test runs (the gold plus uniform noise of a width growing with the run's number
 * modulo 10, clamped to 0-5) in .bench/data/stsb<count>-v<GENERATOR>; returns the folder.
 */
export const stsbRuns = (count: number): string => {
  const dir = path.join(cache, `stsb${count}-v${GENERATOR}`)
  if (fs.existsSync(`${dir}.complete`)) return dir
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  const gold = StsBenchmark.parse(Text.decode(fs.readFileSync(stsbGold), stsbGold).value).value.rows.map((r) => r.score)
  const uniform = noiseSource(7)
  for (let k = 0; k < count; k++) {
    const noise = 0.5 + (k % 10) / 5
    const scores = gold.map((y) => Math.min(5, Math.max(0, Math.round((y + (uniform() - 0.5) * 2 * noise) * 1e4) / 1e4)))
    fs.writeFileSync(path.join(dir, `Team${String(k).padStart(4, "0")}_run1primary.txt`), Sts.writeOutput(scores))
  }
  fs.writeFileSync(`${dir}.complete`, "")
  return dir
}

/** gen_bench.py's runs (44 STS 2017 runs, 20 SICK-test runs) in .bench/data/allpairs; undefined without NumPy. */
const allPairsRuns = (numpy: boolean): string | undefined => {
  const dir = path.join(cache, "allpairs")
  if (fs.existsSync(`${dir}.complete`)) return dir
  if (!numpy) return undefined
  execFileSync("python3", [path.join(perf, "gen_bench.py"), dir], { env: { ...process.env, DATA: data }, stdio: "ignore" })
  fs.writeFileSync(`${dir}.complete`, "")
  return dir
}

/** The estimates of a significance --json document (stseval/significance@2), best first. */
const estimatesOf = (json: string): Array<number> =>
  (JSON.parse(json) as { tests: ReadonlyArray<{ runs: ReadonlyArray<{ estimate: number }> }> }).tests[0].runs.map((r) => r.estimate)

const mb = (x: number) => (Number.isNaN(x) ? "-" : `${Math.round(x)} MB`)
const sec = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "-" : `${x.toFixed(3)} s`)

/** One line of the printed table. */
interface Line {
  readonly job: string
  readonly ours: Timing
  readonly peer?: { readonly name: string; readonly timing: Timing } | undefined
  readonly goal: string
  readonly note?: string | undefined
}

const markdown = (lines: ReadonlyArray<Line>): string =>
  [
    "| job | stseval | peer | ratio | goal |",
    "|---|---|---|---|---|",
    ...lines.map((l) => {
      // CPU beside wall: a job's work is fixed, so CPU seconds well above its usual ones say the
      // machine was slow in those launches (a busy host), not the job
      const ours = `${sec(l.ours.seconds)} (CPU ${sec(l.ours.cpuSeconds)}), ${mb(l.ours.peakMB)}`
      const peer = l.peer === undefined ? "–" : `${l.peer.name} ${sec(l.peer.timing.seconds)}, ${mb(l.peer.timing.peakMB)}`
      const ratio = l.peer === undefined ? "–" : (l.ours.seconds / l.peer.timing.seconds).toFixed(2)
      return `| ${l.job}${l.note !== undefined ? ` (${l.note})` : ""} | ${ours} | ${peer} | ${ratio} | ${l.goal} |`
    })
  ].join("\n")

export const run = async (options: { readonly fast?: boolean } = {}): Promise<Array<Row>> => {
  const fast = options.fast === true
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-bench-"))
  const rows: Array<Row> = []
  const lines: Array<Line> = []
  const repeats = (n: number) => (fast ? 1 : n)
  try {
    const exe = process.env.STSEVAL_BENCH_EXE ?? path.join(work, "stseval.mjs")
    if (process.env.STSEVAL_BENCH_EXE === undefined) await bundle({ outfile: exe })
    const node = process.execPath
    const env = { TMPDIR: work }
    const stseval = (args: ReadonlyArray<string>): Program => ({ command: node, args: [exe, ...args], env })
    const hasR = has("Rscript", ["--version"])
    const hasNumpy = has("python3", ["-c", "import numpy"])
    const hasData = fs.existsSync(stsbGold) && fs.existsSync(sts2017Gold) && fs.existsSync(sickTestGold)
    rows.push({ name: `machine: Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}${fast ? ", fast mode" : ""}, ${exe}` })

    /** A row: stseval alone, or beside its peer in turns. */
    const row = (job: string, goal: string, ours: Program, n: number, peer?: { readonly name: string; readonly program: Program }, note?: string): Timing => {
      const [mine, theirs] = peer !== undefined ? sideBySide(ours, peer.program, n) : [time(ours.command, ours.args, n, ours.env), undefined]
      const line: Line = { job, ours: mine, peer: peer !== undefined && theirs !== undefined ? { name: peer.name, timing: theirs } : undefined, goal, note }
      lines.push(line)
      rows.push({
        job,
        stseval: mine.seconds,
        cpu: mine.cpuSeconds,
        peakMB: mine.peakMB,
        ...(peer !== undefined && theirs !== undefined
          ? { peer: peer.name, peerSeconds: theirs.seconds, peerCpu: theirs.cpuSeconds, peerMB: theirs.peakMB, ratio: mine.seconds / theirs.seconds }
          : {}),
        goal,
        ...(note !== undefined ? { note } : {})
      })
      return mine
    }

    // score one SICK-test run against R
    const score = stseval(["score", "--task", "sick2014", "--gold", sickGold, sickRun, "--json"])
    const r: Program = { command: "Rscript", args: [path.join(perf, "sick_cor.R"), sickRun, sickGold] }
    row("`score`, one SICK-test run", "<= 0.5", score, repeats(11), hasR ? { name: "R (`sick_cor.R`)", program: r } : undefined, hasR ? undefined : "R skipped: no Rscript")

    if (!hasData) {
      rows.push({ job: "the STS 2017, SICK and STS-B rows: skipped (they need ../shared/data)" })
    } else {
      // all-pairs bootstrap against np_allpairs.py, on gen_bench.py's runs
      const bench = allPairsRuns(hasNumpy)
      const allPairs = (job: string, letter: "a" | "b", edition: string, gold: string, folder: string) => {
        if (bench === undefined) return
        const args = ["significance", "--task", edition, "--gold", gold, path.join(bench, folder), "--against", "all", "--test", "bootstrap", "--json"]
        const numpy: Program = {
          command: "python3",
          args: [path.join(perf, "np_allpairs.py"), letter, "--workers", "2"],
          env: { DATA: data, BENCH: bench, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1" }
        }
        row(job, "<= 0.5", stseval(args), repeats(5), { name: `\`np_allpairs.py ${letter}\``, program: numpy })
        // the same work: NumPy's estimates are stseval's
        const out = path.join(work, `np-${letter}.json`)
        launch(numpy.command, [...numpy.args, "--out", out], numpy.env)
        const theirs = ((JSON.parse(fs.readFileSync(out, "utf8")) as { est: Array<number> }).est).sort((a, b) => b - a)
        const ours = estimatesOf(launch(node, [exe, ...args], env).stdout)
        rows.push({ job: `${job}: estimates as NumPy's (1e-9)`, same: ours.length === theirs.length && ours.every((e, i) => Math.abs(e - theirs[i]) < 1e-9) })
      }
      if (bench !== undefined) {
        allPairs("all-pairs bootstrap, 44 STS 2017 runs x 7 tracks, 10k resamples", "a", "sts2017", sts2017Gold, "sts2017_44")
        allPairs("all-pairs bootstrap, 20 SICK-test runs", "b", "sick2014", sickTestGold, "sick20")
      } else rows.push({ job: "all-pairs rows: skipped (gen_bench.py needs python3 with NumPy)" })

      // intervals and ranks of many STS-B runs
      const many = fast ? 200 : 2000
      const runs = stsbRuns(many)
      const rank = ["rank", "--task", "stsb", "--gold", stsbGold, runs]
      const npCi: Program = { command: "python3", args: [path.join(perf, "np_ci.py"), runs, stsbGold], env: { OPENBLAS_NUM_THREADS: "2", OMP_NUM_THREADS: "2" } }
      const n = `${many.toLocaleString("en")}`
      const pearsonCi = row(`\`rank --ci 95\`, ${n} STS-B runs (Pearson and rank intervals)`, "<= 0.5", stseval([...rank, "--ci", "95"]), repeats(3), hasNumpy ? { name: "`np_ci.py`", program: npCi } : undefined, hasNumpy ? undefined : "NumPy skipped")
      // the same job with a metric declared by its statistics alone: Lin's CCC, in a user edition
      // extending stsb (issue 34: no slower than Pearson's by more than 1.2)
      const cccEdition = path.join(work, "stsb-ccc.yaml")
      fs.writeFileSync(cccEdition, "extends: stsb\nid: stsb-ccc\nranking:\n  - subtask: similarity\n    metric: ccc\n    aggregate: single\n    report: [ccc]\n")
      try {
        const ccc = row(`\`rank --ci 95\`, ${n} runs, Lin's CCC (declared by its statistics)`, "<= 1.2 x Pearson's", stseval(["rank", "--task", cccEdition, "--gold", stsbGold, runs, "--ci", "95"]), repeats(3))
        rows.push({ job: "CCC over Pearson, `rank --ci 95`", ratio: ccc.seconds / pearsonCi.seconds, cpuRatio: ccc.cpuSeconds / pearsonCi.cpuSeconds })
      } catch (error) {
        // an executable from before CCC (STSEVAL_BENCH_EXE) does not know the metric
        rows.push({ job: "CCC row: skipped", reason: error instanceof Error ? error.message.slice(0, 200) : String(error) })
      }
      // an absolute goal: launched in turns with np_ci.py all the same (less work: Pearson's intervals
      // alone), whose seconds in the same turns say how fast the machine was meanwhile
      const pace = hasNumpy ? { name: "`np_ci.py` (the machine's pace: Pearson only)", program: npCi } : undefined
      row(`\`rank --ci 95 --json\`, ${n} runs (adds Spearman intervals)`, "< 2 s", stseval([...rank, "--ci", "95", "--json"]), repeats(3), pace)
      row(`\`rank\`, ${n} runs, no intervals`, "< 0.6 s", stseval(rank), repeats(3))

      // significance of every pair of 500 runs
      const some = fast ? 50 : 500
      const pairs = (some * (some - 1)) / 2
      const significance = stseval(["significance", "--task", "stsb", "--gold", stsbGold, stsbRuns(some), "--against", "all", "--json"])
      const sig = row(`\`significance --against all\`, ${some} STS-B runs (${pairs.toLocaleString("en")} pairs)`, "< 1 s, < 300 MB", significance, repeats(3))
      const json = launch(significance.command, significance.args, significance.env).stdoutBytes
      rows.push({ job: "significance --json: its size", megabytes: json / 1e6, peakMB: sig.peakMB })
      const last = lines.pop()!
      lines.push({ ...last, note: `${(json / 1e6).toFixed(1)} MB of JSON` })
    }
    process.stdout.write(`\n${markdown(lines)}\n\n`)
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
  return rows
}
