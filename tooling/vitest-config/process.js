// Running a program in a child process from a test: its exit code and everything it printed.
// One helper for the CLI tests (the executable from source, the bundled single file) and the
// Codabench compute-worker emulation.
import { spawn } from "node:child_process"

/**
 * Run `command args` with no stdin; resolves when it has closed.
 *
 * @param {string} command
 * @param {ReadonlyArray<string>} args
 * @param {{ readonly cwd?: string, readonly env?: NodeJS.ProcessEnv }} [options]
 * @returns {Promise<{ readonly code: number | null, readonly stdout: string, readonly stderr: string }>}
 */
export const runProcess = (command, args, options = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d.toString()))
    child.stderr.on("data", (d) => (stderr += d.toString()))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })
