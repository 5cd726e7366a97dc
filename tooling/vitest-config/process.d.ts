/** A finished child process: its exit code (null when killed by a signal) and its output. */
export interface ProcessResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Run `command args` with no stdin; resolves when it has closed. */
export declare const runProcess: (
  command: string,
  args: ReadonlyArray<string>,
  options?: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv }
) => Promise<ProcessResult>
