/**
 * Runs the real `stseval` executable in a child process (from source, through tsx), so tests see
 * what a user sees: stdout, stderr and the exit code.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

export const repoRoot = path.resolve(import.meta.dirname, "../../../..")
const bin = path.join(repoRoot, "apps/cli/src/bin.ts")

export const shared = path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(shared, "data"))
export const examples = path.join(repoRoot, "examples")

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export const runCli = (
  args: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly cwd?: string } = {}
): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=@stseval/source", "--import", "tsx", bin, ...args], {
      cwd: options.cwd ?? repoRoot,
      // NO_COLOR keeps the output plain whatever the terminal the tests run in.
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", ...options.env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })
