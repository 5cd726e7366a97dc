/**
 * What the Codabench compute worker does with a bundle, done on this machine without Docker
 * (codalab/codabench c7dbc756, `compute_worker/compute_worker.py`, `Run.prepare` / `_get_bundle` /
 * `_run_program_directory` / `push_scores` / `push_output`):
 *
 * - the task's scoring program is unzipped into `/app/program`, its reference data into
 *   `/app/input/ref`; the submission (results-only: what the prediction step copied to its output,
 *   plus the `metadata` file that step writes) into `/app/input/res`; `/app/output` is empty;
 * - `_get_bundle` extracts each zip as it is (`ZipFile.extractall`), so a folder is copied as it is;
 * - the `command` of `metadata.yaml` is split on single spaces (no shell) and run with
 *   `/app/program` as the working directory; then `/app/output/scores.json` is read.
 *
 * Here `/app` is a temporary folder outside the repository (no `node_modules` above it), the
 * command's `/app/` paths point into it, and the environment holds only `PATH`.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Yaml from "yaml"
import { runProcess } from "@stseval/vitest-config/process"
// The CLI built by the repository's one bundle configuration, shared with the CLI's tests (test
// support only: the package itself never imports an app). Codabench's compute worker runs the CLI,
// so these tests need the built app: the one import from an app the boundaries allow.
// eslint-disable-next-line stseval/boundaries
import { builtCli } from "../../../../apps/cli/test/support/built.js"

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..")
export const sharedRoot = process.env["STSEVAL_SHARED"] ?? path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(sharedRoot, "data")) && fs.existsSync(path.join(sharedRoot, "reference"))

/** A fresh temporary folder outside the repository. */
export const tempDir = (prefix = "stseval-codabench-test-"): string => fs.mkdtempSync(path.join(os.tmpdir(), prefix))

/** A fresh folder holding a stand-in for the single-file CLI, for tests that write a bundle but never run it. */
export const stubCli = (text = "// not run here\n"): { readonly work: string; readonly cli: string } => {
  const work = tempDir()
  const cli = path.join(work, "stseval.mjs")
  fs.writeFileSync(cli, text)
  return { work, cli }
}

/**
 * The single-file CLI (`stseval.mjs`), built from the sources by the repository's own bundle
 * function (apps/cli/scripts/bundle.ts, what `pnpm build` runs), once per test worker, into a
 * temporary folder outside the repository.
 */
export const buildCli = builtCli

/** Copy a folder the way the worker's zip round trip leaves it (as it is). */
const copyTree = (from: string, to: string) => fs.cpSync(from, to, { recursive: true })

/** A submission: file name -> content (a results-only submission's files, unzipped). */
export type SubmissionFiles = Readonly<Record<string, string | Uint8Array>>

export interface WorkerRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** the `/app` folder */
  readonly app: string
  readonly output: string
  /** the parsed scores.json, when written */
  readonly scores: Record<string, unknown> | undefined
  readonly detailedResults: string | undefined
  /** the command as run, with `/app/` pointing at `app` */
  readonly command: ReadonlyArray<string>
}

export interface App {
  /** the `/app` folder */
  readonly app: string
  readonly program: string
  readonly input: string
  readonly output: string
}

/**
 * Lay out `/app` as the worker does for a scoring run: the bundle's scoring program, one of its
 * reference data folders (`reference_data_test`, `reference_data_dev`) and the submission.
 */
export const prepareApp = (bundle: string, referenceData: string, submission: SubmissionFiles): App => {
  const app = path.join(tempDir("stseval-app-"), "app")
  const program = path.join(app, "program")
  const input = path.join(app, "input")
  const ref = path.join(input, "ref")
  const res = path.join(input, "res")
  const output = path.join(app, "output")
  copyTree(path.join(bundle, "scoring_program"), program)
  copyTree(path.join(bundle, referenceData), ref)
  fs.mkdirSync(res, { recursive: true })
  fs.mkdirSync(output, { recursive: true })
  for (const [name, content] of Object.entries(submission)) {
    fs.mkdirSync(path.dirname(path.join(res, name)), { recursive: true })
    fs.writeFileSync(path.join(res, name), content)
  }
  // What `push_output` of the prediction step writes next to the submitted files.
  fs.writeFileSync(path.join(res, "metadata"), "elapsedTime: 0.01\nexitCode: null\ningestionElapsedTime: null\ningestionExitCode: null\n")
  return { app, program, input, output }
}

/**
 * Run the bundle's scoring program on a submission as the compute worker would (see `prepareApp`).
 */
export const runLikeWorker = (bundle: string, referenceData: string, submission: SubmissionFiles): Promise<WorkerRun> => {
  const { app, program, output } = prepareApp(bundle, referenceData, submission)
  const metadata = fs.readFileSync(path.join(program, "metadata.yaml"), "utf8")
  // The worker: yaml.load(metadata), then metadata.get("command").
  const command = (Yaml.parse(metadata) as { command?: unknown } | null)?.command
  if (typeof command !== "string") throw new Error("metadata.yaml has no command")
  const argv = command.split(" ").map((a) => a.split("/app/").join(`${app}/`))
  const [exe, ...args] = argv
  return runProcess(exe === "node" ? process.execPath : exe, args, { cwd: program, env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" } }).then(
    ({ code, stdout, stderr }) => {
      const scoresFile = path.join(output, "scores.json")
      const htmlFile = path.join(output, "detailed_results.html")
      return {
        code,
        stdout,
        stderr,
        app,
        output,
        scores: fs.existsSync(scoresFile) ? (JSON.parse(fs.readFileSync(scoresFile, "utf8")) as Record<string, unknown>) : undefined,
        detailedResults: fs.existsSync(htmlFile) ? fs.readFileSync(htmlFile, "utf8") : undefined,
        command: argv
      }
    }
  )
}
