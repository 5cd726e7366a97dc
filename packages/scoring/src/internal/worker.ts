/**
 * An isolated scorer: a worker thread that reads runs and validates them against the gold it was
 * sent, one at a time, and answers the validation (aligned scores and issues). The engine turns it
 * into figures (`scoreValidated`, cheap: linear in the gold's pairs) on its own thread. Reading and
 * parsing, the work a crafted run can make long or large, happen here, under the engine's budget
 * (see `Isolation` for how it is enforced).
 *
 * @internal
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Files, Submissions } from "@stseval/formats"
import type { Gold, Registry } from "@stseval/formats"
import { Effect, Layer, ManagedRuntime } from "effect"
import type { FileSystem, Path } from "effect"
import type { MessagePort } from "node:worker_threads"
import type { Answer, FromWorker, JobMessage, Outcome, ToWorker, Work } from "./protocol.js"
import { goldEncoder, SAVE_CACHE_KEY } from "./protocol.js"
import { validateRun } from "./validate.js"

/**
 * The services a run is read with, built once for the scorer's life: provided per run, the layer
 * was built again for each (a scope and its finalisers per run, most of Effect's share of a small
 * run's cost).
 */
const runtime = ManagedRuntime.make(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))

export interface Loaded {
  readonly id: number
  readonly edition: Registry.TaskEdition
  readonly gold: Gold.Gold
  readonly lenient: boolean
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : typeof e === "object" && e !== null && "message" in e ? String(e.message) : String(e))

/**
 * Validate a loaded run; a throw is an internal error, as `Engine.scoreSubmission` reports it,
 * except the time budget's own interruption (a run scored on the engine's thread, `inThread.ts`),
 * which is the run's fate, not an error of scoring.
 */
const validated = (context: Loaded, submission: Submissions.Submission, within: Within): Outcome => {
  try {
    const validation = within(() => validateRun(context.edition, context.gold, submission, { lenient: context.lenient }))
    return { kind: "run", meta: submission.meta, path: submission.path, validation }
  } catch (e) {
    if (isTimeout(e)) throw e
    return { kind: "error", message: `internal error while scoring: ${messageOf(e)}`, io: false }
  }
}

/** The error node:vm throws when a script's time is up (`inThread.ts`). */
export const isTimeout = (e: unknown): boolean => typeof e === "object" && e !== null && (e as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT"

/** How a run's synchronous work is run: as it is in a scorer; under the time left on the engine's thread. */
export type Within = <A>(f: () => A) => A

const direct: Within = (f) => f()

/**
 * Read (unless already read) and validate one run: what a scorer does with each of its jobs'
 * runs, and the engine with a small run on its own thread (`inThread.ts`).
 */
export const run = (context: Loaded, work: Work, within: Within = direct): Promise<Outcome> => {
  if (work.kind === "submission") return Promise.resolve(validated(context, work.submission, within))
  const load: Effect.Effect<Outcome, unknown, FileSystem.FileSystem | Path.Path> =
    work.kind === "path"
      ? Submissions.loadRun(work.path, context.edition, work.options).pipe(
          Effect.map((submission) => validated(context, submission, within))
        )
      : Submissions.loadEntry(work.folder, work.name, context.edition, work.options, work.within).pipe(
          Effect.map((entry): Outcome => {
            if (entry._tag === "Skipped") return { kind: "skipped", issue: entry.issue }
            // the folder gives the run its id once every run is known (`Submissions.settle`)
            return validated(context, { ...entry.run, meta: { ...entry.run.meta, id: "" } }, within)
          })
        )
  return runtime.runPromise(load.pipe(Effect.catch((e) => Effect.succeed<Outcome>({ kind: "error", message: messageOf(e), io: true }))))
}

/**
 * Once, before the first answer: the loader's function that saves this scorer's code cache, when
 * it left one (`Isolation.scorerThread`'s `saveCacheKey`; the executable's loader, when this scorer found
 * no cache of its own). Before the answer, as the process may end as soon as it has its answer;
 * after the first run, whose reading compiled what every later run uses.
 */
const saveCodeCache = (): void => {
  const store = globalThis as Record<symbol, (() => void) | undefined>
  const save = store[Symbol.for(SAVE_CACHE_KEY)]
  if (typeof save !== "function") return
  store[Symbol.for(SAVE_CACHE_KEY)] = undefined
  save()
}

/**
 * Runs of a batch read at once. A scorer's file-system calls are synchronous
 * (`Files.useSynchronousCalls`), but what is left asynchronous (a folder run's listing, Effect's
 * scheduling between steps) overlaps. Measured on 2,000 STS-B runs read on one thread with the
 * asynchronous calls: 3.3 s one at a time, 1.7 s four at once, 1.6 s eight at once; with the
 * synchronous ones, `rank` of those runs (two scorers) was within noise of one at a time.
 */
const AT_ONCE = 4

/**
 * Answers held before they are sent, at most this many runs, and for at most `HOLD_MS` after the
 * first: a message per run cost about as much CPU as reading and checking a small run (`rank` of
 * 2,000 STS-B runs). The engine restarts a job's clock with each message, so a run answered and
 * held is never what ends a job at its time budget: it is held 20 ms at most, or, when the thread
 * is stuck in another run of the batch, sent again alone with every run not yet answered.
 */
const ANSWERS_AT_ONCE = 16
const HOLD_MS = 20

/**
 * Serve jobs on `port` until the thread is ended: a context (edition and gold) first, then jobs,
 * their runs answered a few at a time as they are done (`ANSWERS_AT_ONCE`), the last at once. The
 * engine sends one job at a time.
 */
export const serve = (port: MessagePort): void => {
  // The program's standard output is its result (`--json`): whatever a scorer might print goes to
  // standard error. (Not piped to the engine instead: a worker's piped output keeps the process
  // alive after its last job.)
  process.stdout.write = process.stderr.write.bind(process.stderr)
  Files.useSynchronousCalls()
  let context: Loaded | undefined
  const golds = goldEncoder()
  const post = (message: FromWorker) => port.postMessage(message)
  let held: Array<Answer> = []
  let heldJob = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    if (held.length === 0) return
    saveCodeCache()
    const answers = held
    held = []
    post({ type: "done", job: heldJob, answers })
  }
  const answer = (message: JobMessage, index: number, outcome: Outcome, last: boolean) => {
    if (held.length > 0 && heldJob !== message.job) flush()
    heldJob = message.job
    held.push({ index, outcome: golds.encode(outcome) })
    if (last || held.length >= ANSWERS_AT_ONCE) flush()
    else timer ??= setTimeout(flush, HOLD_MS)
  }
  port.on("message", (message: ToWorker) => {
    if (message.type === "context") {
      context = { id: message.id, edition: message.edition, gold: message.gold, lenient: message.lenient }
      golds.reset()
      return
    }
    const current = context
    const count = message.works.length
    let answered = 0
    const done = (index: number, outcome: Outcome) => answer(message, index, outcome, ++answered === count)
    if (current === undefined || current.id !== message.context) {
      message.works.forEach((_, index) => done(index, { kind: "error", message: "internal error: the scorer was given no context", io: false }))
      return
    }
    let next = 0
    const lane = async (): Promise<void> => {
      while (next < count) {
        const index = next++
        const outcome = await run(current, message.works[index]).catch(
          (e: unknown): Outcome => ({ kind: "error", message: `internal error while scoring: ${messageOf(e)}`, io: false })
        )
        done(index, outcome)
      }
    }
    for (let k = 0; k < Math.min(AT_ONCE, count); k++) void lane()
  })
  post({ type: "ready" })
}
