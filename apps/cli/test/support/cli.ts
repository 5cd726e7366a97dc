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

// STSEVAL_SHARED overrides the location, as in the packages' tests (a worktree has no ../shared beside it)
export const shared = process.env["STSEVAL_SHARED"] ?? path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(shared, "data"))
export const examples = path.join(repoRoot, "examples")

export type CliResult = ProcessResult

/** The CLI run in this process on `args`; `env` replaces the environment it reads. */
export const runCli = async (args: ReadonlyArray<string>, options: { readonly env?: Record<string, string> } = {}): Promise<CliResult> => {
  let stdout = ""
  let stderr = ""
  const code = await runInProcess(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    ...(options.env !== undefined ? { env: { ...process.env, ...options.env } } : {})
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
