/**
 * Runs `stseval` for the tests: `runCli` in this process (`Main.runInProcess`, with its own output
 * streams and environment: quick, and nothing leaks between tests), `spawnCli` as the real
 * executable in a child process (from source, through tsx) for what only a process shows.
 * Both give what a user sees: stdout, stderr and the exit code.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { runProcess } from "@stseval/vitest-config/process"
import type { ProcessResult } from "@stseval/vitest-config/process"
import { runInProcess } from "../../src/Main.js"

export const repoRoot = path.resolve(import.meta.dirname, "../../../..")
const bin = path.join(repoRoot, "apps/cli/src/bin.ts")

// STSEVAL_SHARED overrides `../shared` beside the checkout (as in the packages' tests): a worktree elsewhere
export const shared = process.env["STSEVAL_SHARED"] ?? path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(shared, "data"))
export const examples = path.join(repoRoot, "examples")

export type CliResult = ProcessResult

/**
 * Set the times of `folder` and of everything in it a minute back: runs sent a while ago. `watch`
 * scores a run only once its newest file is `--settle` old (1.5 s by default), so that a run still
 * being copied in is not scored half-copied; runs a test has just written would each make
 * `watch --once` wait that long. The settle itself is tested in packages/leaderboard. Links are
 * not followed (a test's link may point at a system file).
 */
export const backdate = (folder: string): void => {
  const when = new Date(Date.now() - 60_000)
  // names as bytes: a test's run may be named in bytes that are not UTF-8
  const walk = (dir: Buffer) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, encoding: "buffer" })) {
      const entryPath = Buffer.concat([dir, Buffer.from("/"), entry.name])
      if (entry.isDirectory()) walk(entryPath)
      fs.lutimesSync(entryPath, when, when)
    }
  }
  walk(Buffer.from(folder))
  fs.lutimesSync(folder, when, when)
}

/** The CLI run in this process on `args`; `env` replaces the environment it reads. */
export const runCli = async (args: ReadonlyArray<string>, options: { readonly env?: Record<string, string> } = {}): Promise<CliResult> => {
  let stdout = ""
  let stderr = ""
  const code = await runInProcess(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    // COLUMNS only when a test sets it: text tables fit it, and a terminal's own would change them
    env: { ...process.env, COLUMNS: undefined, ...options.env }
  })
  return { code, stdout, stderr }
}

/** The real executable, in a child process. */
export const spawnCli = (
  args: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly cwd?: string } = {}
): Promise<CliResult> =>
  runProcess(process.execPath, ["--conditions=@stseval/source", "--import", "tsx", bin, ...args], {
    cwd: options.cwd ?? repoRoot,
    // NO_COLOR keeps the output plain whatever the terminal the tests run in.
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", ...options.env }
  })
