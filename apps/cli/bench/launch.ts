/**
 * Timing a program as a user runs it, for the CLI benches: one launch as a child process (process
 * start included), and the median of several after a warm-up launch (which also fills stseval's
 * code cache, as any second use does). CPU seconds (user + sys, every thread) and the peak resident
 * memory come from /usr/bin/time when it is there, NaN otherwise: on a shared machine CPU seconds
 * show what wall time hides.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "../../..")
const timeBin = "/usr/bin/time"
const hasTime = fs.existsSync(timeBin)

export const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN

export interface Launch {
  readonly seconds: number
  readonly cpuSeconds: number
  /** peak resident set size, in MB (10^6 bytes) */
  readonly peakMB: number
  /** bytes written to standard output */
  readonly stdoutBytes: number
  /** what it wrote to standard output (read back on first use) */
  readonly stdout: string
}

/** Medians over several launches. */
export interface Timing {
  readonly seconds: number
  readonly cpuSeconds: number
  readonly peakMB: number
}

/** Where a launch's standard output goes: a file, as `> out.json` (a pipe to this process would slow a large output). */
const stdoutFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "stseval-bench-out-")), "stdout")
process.once("exit", () => fs.rmSync(path.dirname(stdoutFile), { recursive: true, force: true }))

/** One launch of `command args` in the repository root; throws with its stderr when it fails. */
export const launch = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}): Launch => {
  const [exe, argv] = hasTime ? [timeBin, ["-f", "cpu %U %S rss %M", command, ...args]] : [command, [...args]]
  const out = fs.openSync(stdoutFile, "w")
  const t0 = performance.now()
  const r = spawnSync(exe, argv, { cwd: root, encoding: "utf8", stdio: ["ignore", out, "pipe"], maxBuffer: 2 ** 30, env: { ...process.env, NO_COLOR: "1", ...env } })
  const seconds = (performance.now() - t0) / 1000
  fs.closeSync(out)
  if (r.status !== 0) throw new Error(`${command} ${args.slice(-8).join(" ")} exited ${r.status}: ${r.stderr}`)
  const cpu = /cpu ([\d.]+) ([\d.]+) rss (\d+)\s*$/.exec(r.stderr)
  const text = fs.readFileSync(stdoutFile, "utf8")
  return {
    seconds,
    cpuSeconds: cpu !== null ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN,
    // GNU time's %M is in KiB
    peakMB: cpu !== null ? (Number(cpu[3]) * 1024) / 1e6 : Number.NaN,
    stdoutBytes: Buffer.byteLength(text),
    stdout: text
  }
}

const summary = (runs: ReadonlyArray<Launch>): Timing => ({
  seconds: median(runs.map((r) => r.seconds)),
  cpuSeconds: median(runs.map((r) => r.cpuSeconds)),
  peakMB: median(runs.map((r) => r.peakMB))
})

/** Median wall and CPU seconds and peak memory of `repeats` launches after one warm-up launch. */
export const time = (command: string, args: ReadonlyArray<string>, repeats: number, env: NodeJS.ProcessEnv = {}): Timing => {
  launch(command, args, env)
  return summary(Array.from({ length: repeats }, () => launch(command, args, env)))
}

/** A program to launch: command, arguments and extra environment. */
export interface Program {
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly env?: NodeJS.ProcessEnv
}

/**
 * Median wall and CPU seconds of each program over `repeats` launches taken in turns (a, b, a, b,
 * ...) after a warm-up launch of each: this machine's speed moves from minute to minute, and taking
 * turns lets such a change weigh on both sides of a ratio alike.
 */
export const sideBySide = (
  a: Program,
  b: Program,
  repeats: number
): readonly [Timing, Timing] => {
  const once = (p: Program) => launch(p.command, p.args, p.env)
  once(a)
  once(b)
  const as: Array<Launch> = []
  const bs: Array<Launch> = []
  for (let i = 0; i < repeats; i++) {
    as.push(once(a))
    bs.push(once(b))
  }
  return [summary(as), summary(bs)]
}
