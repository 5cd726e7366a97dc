/**
 * Issue 36's table: where users feel the time, each row beside its yardstick (../shared/perf),
 * launched in turns (launch.ts: sideBySide), start-up included, with the machine's load printed:
 *
 *   score      `stseval score` of one SICK-test run  vs  `Rscript sick_cor.R RUN GOLD`
 *   rank       `stseval rank` of 2,000 STS-B runs, no intervals  vs  `python3 np_rank.py`
 *   version    `stseval --version`  vs  `node -e 0`
 *   watch      `stseval watch` of a folder of 500 STS-B runs: the first public board, then a new
 *              run copied in (its bytes written to a file outside the folder, then copied in with
 *              `cp`, as a user does) until `leaderboard.public.json` lists it, from the copy's end
 *
 * The bundled executable is built into a temp folder (or STSEVAL_BENCH_EXE names one, e.g. a build
 * of main). `pnpm bench speed --fast`: one launch per figure, 200 and 50 runs. STSEVAL_BENCH_ROWS
 * (e.g. `watch` or `score,rank`) keeps only those rows.
 */
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bundle } from "../scripts/bundle.js"
import { has, shared, stsbRuns } from "./cli.bench.js"
import { median, sideBySide, time } from "./launch.js"
import type { Program, Timing } from "./launch.js"

const root = path.resolve(import.meta.dirname, "../../..")
const perf = path.join(shared, "perf")
const stsbGold = path.join(shared, "data/stsbenchmark/sts-test.csv")
const sickGold = path.join(root, "examples/sick2014/SICK_test_annotated.txt")
const sickRun = path.join(root, "examples/sick2014/submissions/MeaningFactory_run1primary.txt")

type Row = Record<string, unknown>

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Poll `check` every 2 ms until it holds (or throw after `limitMs`): the time it took, in seconds. */
const until = async (what: string, check: () => boolean, limitMs = 120_000): Promise<number> => {
  const t0 = performance.now()
  while (!check()) {
    if (performance.now() - t0 > limitMs) throw new Error(`bench: timed out waiting for ${what}`)
    await sleep(2)
  }
  return (performance.now() - t0) / 1000
}

/** The entries of a public board file, read again only when the file changed (a stat every poll, not a parse). */
const boardReader = (file: string): (() => ReadonlySet<string>) => {
  let key = ""
  let entries: ReadonlySet<string> = new Set()
  return () => {
    try {
      const st = fs.statSync(file)
      const now = `${st.ino}:${st.size}:${st.mtimeMs}`
      if (now !== key) {
        entries = new Set((JSON.parse(fs.readFileSync(file, "utf8")) as { runs: ReadonlyArray<{ entry: string }> }).runs.map((r) => r.entry))
        key = now
      }
    } catch {
      // not there yet, or replaced between the stat and the read: looked at again next poll
    }
    return entries
  }
}

/**
 * A process's CPU seconds (its threads included) and peak resident memory (MB) so far, from Linux's
 * `/proc`; undefined elsewhere.
 */
const procUsage = (pid: number | undefined): { readonly cpu: number; readonly peakMB: number } | undefined => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    // utime and stime, in clock ticks (100 a second on Linux)
    const cpu = (Number(fields[11]) + Number(fields[12])) / 100
    const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))
    return hwm === null ? undefined : { cpu, peakMB: Number(hwm[1]) / 1024 }
  } catch {
    return undefined
  }
}

/**
 * `stseval watch` on a copy of `runs`: seconds to the first public board with every run (and the
 * watcher's CPU and peak memory then), and the latencies of `newRuns` runs copied in one after
 * another (each once the previous is listed).
 */
const watchLatency = async (exe: string, runs: string, work: string, newRuns: number): Promise<{ first: number; usage: ReturnType<typeof procUsage>; latencies: Array<number> }> => {
  const folder = path.join(work, "watched")
  const out = path.join(work, "watch-out")
  fs.rmSync(folder, { recursive: true, force: true })
  fs.rmSync(out, { recursive: true, force: true })
  fs.cpSync(runs, folder, { recursive: true })
  const names = fs.readdirSync(folder)
  const publicRuns = boardReader(path.join(out, "leaderboard.public.json"))
  const t0 = performance.now()
  const child = spawn(process.execPath, [exe, "watch", "--task", "stsb", "--gold", stsbGold, "--out", out, folder], { stdio: "ignore", env: { ...process.env, TMPDIR: work } })
  try {
    await until("the first public board", () => publicRuns().size === names.length)
    const first = (performance.now() - t0) / 1000
    // the watcher's CPU and memory to its first board
    const usage = procUsage(child.pid)
    const latencies: Array<number> = []
    for (let k = 0; k < newRuns; k++) {
      const entry = `Late${String(k).padStart(3, "0")}_run1primary.txt`
      const staged = path.join(work, entry)
      fs.copyFileSync(path.join(folder, names[k % names.length]), staged)
      execFileSync("cp", [staged, path.join(folder, entry)])
      latencies.push(await until(`${entry} on the public board`, () => publicRuns().has(entry)))
      // the board settles between copies (a user's copies are seconds apart)
      await sleep(300)
    }
    return { first, usage, latencies }
  } finally {
    child.kill("SIGINT")
    await new Promise((r) => child.once("exit", r))
  }
}

export const run = async (options: { readonly fast?: boolean } = {}): Promise<Array<Row>> => {
  const fast = options.fast === true
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-speed-bench-"))
  const rows: Array<Row> = []
  const repeats = (n: number) => (fast ? 1 : n)
  try {
    const exe = process.env.STSEVAL_BENCH_EXE ?? path.join(work, "stseval.mjs")
    if (process.env.STSEVAL_BENCH_EXE === undefined) await bundle({ outfile: exe })
    const env = { TMPDIR: work }
    const stseval = (args: ReadonlyArray<string>): Program => ({ command: process.execPath, args: [exe, ...args], env })
    rows.push({ name: `machine: Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}${fast ? ", fast mode" : ""}` })
    const only = process.env.STSEVAL_BENCH_ROWS?.split(",")
    const wanted = (name: string) => only === undefined || only.includes(name)
    const row = (job: string, ours: Program, peer: { readonly name: string; readonly program: Program } | undefined, n: number) => {
      const [mine, theirs]: readonly [Timing, Timing | undefined] = peer !== undefined ? sideBySide(ours, peer.program, n) : [time(ours.command, ours.args, n, ours.env), undefined]
      rows.push({
        job,
        stseval: mine.seconds,
        cpu: mine.cpuSeconds,
        peakMB: mine.peakMB,
        ...(theirs !== undefined && peer !== undefined ? { peer: peer.name, peerSeconds: theirs.seconds, peerCpu: theirs.cpuSeconds, peerMB: theirs.peakMB, ratio: mine.seconds / theirs.seconds } : {})
      })
    }
    const hasR = has("Rscript", ["--version"])
    if (wanted("score")) row("score one SICK-test run", stseval(["score", "--task", "sick2014", "--gold", sickGold, sickRun, "--json"]), hasR ? { name: "sick_cor.R", program: { command: "Rscript", args: [path.join(perf, "sick_cor.R"), sickRun, sickGold] } } : undefined, repeats(11))
    if (wanted("version")) row("stseval --version", stseval(["--version"]), { name: "node -e 0", program: { command: process.execPath, args: ["-e", "0"] } }, repeats(11))
    if (!fs.existsSync(stsbGold)) {
      rows.push({ job: "rank and watch rows: skipped (they need ../shared/data)" })
      return rows
    }
    const many = fast ? 200 : 2000
    const runs = stsbRuns(many)
    const hasNumpy = has("python3", ["-c", "import numpy"])
    if (wanted("rank")) row(`rank ${many} STS-B runs, no intervals`, stseval(["rank", "--task", "stsb", "--gold", stsbGold, runs]), hasNumpy ? { name: "np_rank.py", program: { command: "python3", args: [path.join(perf, "np_rank.py"), runs, stsbGold] } } : undefined, repeats(5))
    const some = fast ? 50 : 500
    if (wanted("watch")) {
      const w = await watchLatency(exe, stsbRuns(some), work, fast ? 2 : 7)
      rows.push({ job: `watch ${some} STS-B runs: first public board`, seconds: w.first, ...(w.usage !== undefined ? { cpu: w.usage.cpu, peakMB: w.usage.peakMB } : {}) })
      rows.push({ job: `watch: a new run copied in, to the public board (${w.latencies.length} runs)`, median: median(w.latencies), max: Math.max(...w.latencies), all: w.latencies.map((s) => s.toFixed(3)).join(" ") })
    }
    rows.push({ name: `load at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}` })
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
  return rows
}
