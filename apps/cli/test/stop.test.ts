/**
 * Stopping and refusing (issue 22), on the bundled executable as users run it: Ctrl-C and SIGTERM
 * stop a command at once with 130 and 143, also in the middle of a long computation on its own
 * thread or of a run being scored; `--resamples` that the machine cannot hold and budgets that
 * cannot be used are refused before anything starts, on stderr, never on stdout.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Console, Effect } from "effect"
import { buildForNode } from "@stseval/vitest-config/build"
import { beforeAll, describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { exitCodeOf, INTERNAL_ERROR, reportDefects } from "../src/internal/Exit.js"
import { bundle } from "../scripts/bundle.js"
import { builtCli } from "./support/built.js"
import { examples, repoRoot } from "./support/cli.js"

const gold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const submissions = path.join(examples, "sick2014/submissions")
const misbehaving = path.join(repoRoot, "tooling/vitest-config/misbehaving-scorer.mjs")

const work = scratchDir("stop-test")
let exe: string

beforeAll(async () => {
  exe = await builtCli()
}, 60_000)

/** The executable in a child process; `exited` resolves with its code, or the signal that ended it. */
const start = (args: ReadonlyArray<string>, env: Record<string, string | undefined> = {}, file = exe) => {
  const child = spawn(process.execPath, [file, ...args], { cwd: work, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (d) => (stdout += String(d)))
  child.stderr.on("data", (d) => (stderr += String(d)))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }))
  )
  return { child, exited }
}

/** A shell's exit status for a child: its code, or 128 plus the number of the signal that killed it. */
const status = (r: { readonly code: number | null; readonly signal: NodeJS.Signals | null }) =>
  r.code ?? 128 + (r.signal === "SIGINT" ? 2 : r.signal === "SIGTERM" ? 15 : 64)

const waitFor = async (what: string, check: () => boolean, timeoutMs = 20_000) => {
  const until = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe("Ctrl-C and SIGTERM stop any command at once, with 130 and 143", () => {
  // Resampling that would take minutes (three million bootstrap resamples of the SICK runs): the
  // signal comes while it computes on the process's own thread; without a stop at once the test
  // would run into its timeout.
  const resampling = ["significance", "--task", "sick2014", "--gold", gold, submissions, "--test", "bootstrap", "--resamples", "3000000", "--json"]

  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143]
  ] as const) {
    it(`${signal} during a long resampling: exit ${code}, nothing on stdout`, async () => {
      const run = start(resampling)
      // the runs are scored in well under a second; the resampling then takes minutes
      await new Promise((r) => setTimeout(r, 2_000))
      run.child.kill(signal)
      const r = await run.exited
      expect(status(r)).toBe(code)
      expect(r.stdout).toBe("")
    }, 20_000)
  }

  it("SIGTERM while a run is being scored (held by its scorer): its scorer is ended, exit 143, nothing on stdout", async () => {
    const dir = fs.mkdtempSync(path.join(work, "held-"))
    const log = path.join(dir, "log.txt")
    fs.writeFileSync(log, "")
    // more than 1 MiB (a real run and blank lines), so that it goes to a scorer: a smaller run is scored on the program's own thread
    fs.writeFileSync(path.join(dir, "WAIT_run1primary.txt"), fs.readFileSync(path.join(submissions, "MeaningFactory_run1primary.txt"), "utf8") + "\n".repeat(1_200_000))
    // the executable built from an entry that gives its scorers the misbehaving module
    const { outfile } = await bundle({ outfile: path.join(dir, "stseval.mjs"), entry: "test/fixtures/bin-test-scorer.ts" })
    const run = start(["score", "--task", "sick2014", "--gold", gold, path.join(dir, "WAIT_run1primary.txt"), "--json"], {
      STSEVAL_TEST_SCORER: misbehaving,
      STSEVAL_REAL_SCORER: process.env.STSEVAL_TEST_SCORER,
      STSEVAL_TEST_SCORER_LOG: log,
      // never opened: the run is held until the process is stopped
      STSEVAL_TEST_SCORER_GATE: path.join(dir, "gate")
    }, outfile)
    await waitFor("the scorer holding the run", () => fs.readFileSync(log, "utf8").includes("waiting"))
    run.child.kill("SIGTERM")
    const r = await run.exited
    expect(status(r)).toBe(143)
    expect(r.stdout).toBe("")
  }, 90_000)

  it("report --out: a report stopped while its tables are computed leaves no file, whole or half, nor a temporary one", async () => {
    const dir = fs.mkdtempSync(path.join(work, "report-"))
    const out = path.join(dir, "report.html")
    const run = start(["report", "--task", "sick2014", "--gold", gold, submissions, "--format", "html", "--ci", "95", "--resamples", "400000", "--out", out])
    await new Promise((r) => setTimeout(r, 2_000))
    run.child.kill("SIGTERM")
    const r = await run.exited
    expect(status(r)).toBe(143)
    expect(fs.readdirSync(dir)).toEqual([])
  }, 20_000)
})

describe("a signal that comes just before a long computation", () => {
  it("is handled before the computation starts (not lost while the handlers are taken off)", async () => {
    // built into one file: it starts in a fraction of the time the sources take through tsx
    const fixture = await buildForNode(path.join(import.meta.dirname, "fixtures/pending-signal.ts"), path.join(work, "pending-signal.mjs"))
    const child = spawn(process.execPath, [fixture], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    child.stdout.on("data", (d) => (stdout += String(d)))
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve))
    expect(code).toBe(0)
    expect(stdout).toBe("handled\n")
  }, 30_000)
})

describe("what the machine cannot do is refused before it starts, on stderr", () => {
  it("--resamples that cannot be held: exit 2 with the memory needed and the most that fit; stdout (the JSON) stays empty", async () => {
    const r = await start(["rank", "--task", "sick2014", "--gold", gold, submissions, "--ci", "95", "--resamples", String(2 ** 31 - 1), "--json"]).exited
    expect(r.code).toBe(2)
    expect(r.stdout).toBe("")
    expect(r.stderr).toMatch(/^error: --resamples: 2147483647 resamples of \d+ figures \(runs times their datasets and rankings\) need about \d+ GiB of memory, more than this machine can give \(half of its [\d.]+ GiB\); \d+ resamples at most\n$/)
  })

  it("significance --resamples beyond the machine: the same refusal", async () => {
    const r = await start(["significance", "--task", "sick2014", "--gold", gold, submissions, "--test", "bootstrap", "--resamples", String(2 ** 31 - 1), "--json"]).exited
    expect(r.code).toBe(2)
    expect(r.stdout).toBe("")
    expect(r.stderr).toContain("error: --resamples: 2147483647 resamples of")
  })

  it("a budget that cannot be used is a usage error naming the flag", async () => {
    const time = await start(["score", "--task", "sick2014", "--gold", gold, "--time-budget", "0", path.join(submissions, "Insight_run1primary.txt")]).exited
    expect(time.code).toBe(2)
    expect(time.stderr).toContain("--time-budget: 0 is not a number of seconds")
    const memory = await start(["score", "--task", "sick2014", "--gold", gold, "--memory-budget", "16", path.join(submissions, "Insight_run1primary.txt")]).exited
    expect(memory.code).toBe(2)
    expect(memory.stderr).toContain("--memory-budget: 16 MiB is too little for a run's scorer (48 MiB at least)")
  })
})

describe("a crash is one line on stderr and exit 70, never on stdout", () => {
  it("a defect (the RangeError of an allocation too large) becomes one line naming it, on stderr; exit 70", async () => {
    const out: Array<string> = []
    const err: Array<string> = []
    const console = Object.assign(Object.create(globalThis.console) as Console.Console, {
      log: (...a: ReadonlyArray<unknown>) => out.push(a.join(" ")),
      error: (...a: ReadonlyArray<unknown>) => err.push(a.join(" "))
    })
    const crash = Effect.sync((): number => {
      throw new RangeError("Array buffer allocation failed")
    })
    const exit = await Effect.runPromiseExit(crash.pipe(reportDefects("stseval"), Effect.provideService(Console.Console, console)))
    expect(exitCodeOf(exit)).toBe(INTERNAL_ERROR)
    expect(INTERNAL_ERROR).toBe(70)
    expect(out).toEqual([])
    expect(err).toEqual(["error: stseval stopped on an internal error, a bug to report with the command that caused it: RangeError: Array buffer allocation failed"])
  })
})
