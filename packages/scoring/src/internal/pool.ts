/**
 * The engine's isolated scorers: a small pool of worker threads, shared by every scoring in the
 * process, each running one job at a time under a time and memory budget. A worker is started on
 * first need and kept (unreferenced, so it never keeps the process alive) for the next job and the
 * next scoring; one that goes over its budget, crashes or is interrupted is ended and replaced by
 * a fresh one for the next job.
 *
 * Worker threads, not child processes: both start in about the program's load time, but a thread
 * can be ended mid-loop (`terminate`), answers `getHeapStatistics` even in a busy loop, hands back
 * typed arrays without serialising them, and never outlives the process (a child does when its
 * parent is SIGKILLed).
 *
 * Memory: V8's heap limit (`resourceLimits`) ends a worker whose objects outgrow the budget; array
 * buffers live outside that heap, so the pool polls heap plus external memory every `POLL_MS` and
 * ends the worker past the budget. Reads are capped (formats' `Files`), so a run overshoots by at
 * most one read between polls.
 *
 * @internal
 */
import type * as WorkerThreadsModule from "node:worker_threads"
import type { Worker as WorkerType } from "node:worker_threads"
import type { Gold, Registry } from "@stseval/formats"
import type { Answer, FromWorker, Outcome, ToWorker, Work } from "./protocol.js"
import { AHEAD_KEY, goldDecoder, WORKER_KEY } from "./protocol.js"

/**
 * A run's budget: wall-clock time of its job, and heap plus external memory of its worker;
 * `startMs`, how long a worker may take to say it is ready (default `startLimit`).
 */
export interface Budget {
  readonly timeMs: number
  readonly memoryMb: number
  readonly startMs?: number | undefined
}

/**
 * How long a worker may take to say it is ready: the run's time budget, and never less than 30 s,
 * since a start is the machine's pace, not the run's (on a 2-core machine at load 20, a scorer
 * replacing one ended at a 1.5 s budget took longer than that to start).
 */
export const startLimit = (budget: Budget): number => budget.startMs ?? Math.max(budget.timeMs, 30_000)

/** How often a running job's memory is read. */
const POLL_MS = 25

/** What a worker needs to score: sent once to each worker that scores with it. */
export interface ContextData {
  readonly edition: Registry.TaskEdition
  readonly gold: Gold.Gold
  readonly lenient: boolean
}

/** A job that did not give an outcome: over budget, crashed, or no scorer could be started. */
export interface Failure {
  readonly kind: "over-budget" | "crashed" | "no-scorer"
  readonly message: string
}

/** The module a worker runs, and the options it needs (see `Isolation.useEntry`). */
export interface Entry {
  readonly url: URL
  /** code run in its place, which loads `url` (TypeScript sources, through tsx) */
  readonly eval?: string | undefined
  readonly execArgv?: ReadonlyArray<string> | undefined
}

interface Slot {
  readonly worker: WorkerType
  /** what it runs and its heap limit: a job for another entry or budget does not use it */
  readonly kind: string
  readonly memoryMb: number
  /** resolves once the worker said it is ready; rejects if it failed first */
  readonly ready: Promise<void>
  context: number | undefined
  /** the job it runs: an answer for another (late, after a budget) is not this job's */
  job: number | undefined
  busy: boolean
  dead: boolean
  /** what the job running on it does when the worker ends or fails */
  onEnd: ((failure: Failure) => void) | undefined
  onDone: ((answers: ReadonlyArray<Answer>) => void) | undefined
  /** the golds this worker sent by number (`protocol.ts`' `goldDecoder`) */
  readonly golds: ReturnType<typeof goldDecoder>
}

const slots: Array<Slot> = []
const waiting: Array<() => void> = []
const contextIds = new WeakMap<ContextData, number>()
let nextContext = 1
let nextJob = 1

type WorkerThreads = typeof WorkerThreadsModule
let threads: WorkerThreads | undefined
const workerThreads = (): WorkerThreads => (threads ??= process.getBuiltinModule("node:worker_threads"))

const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20)

const release = (slot: Slot) => {
  slot.busy = false
  slot.onEnd = undefined
  slot.onDone = undefined
  if (!slot.dead) slot.worker.unref()
  waiting.shift()?.()
}

const end = (slot: Slot, failure: Failure) => {
  if (slot.dead) return
  slot.dead = true
  const i = slots.indexOf(slot)
  if (i >= 0) slots.splice(i, 1)
  void slot.worker.terminate()
  const onEnd = slot.onEnd
  slot.onEnd = undefined
  slot.onDone = undefined
  onEnd?.(failure)
  // a waiting job may now start a fresh worker in its place
  if (!slot.busy) waiting.shift()?.()
}

const kindOf = (entry: Entry, memoryMb: number) => `${memoryMb}|${entry.url.href}|${entry.eval ?? ""}`

/**
 * The scorer a loader started ahead (`Isolation.scorerThread`), once: for a first start of the
 * program's own entry under its budget, else ended. One no longer running (threadId -1: it failed or
 * exited before it was taken, its events unheard) is not taken: the engine would wait for its ready.
 */
const takeAhead = (entry: Entry, memoryMb: number): WorkerType | undefined => {
  const held = globalThis as { [key: symbol]: { readonly worker: WorkerType; readonly memoryMb: number } | undefined }
  const ahead = held[Symbol.for(AHEAD_KEY)]
  held[Symbol.for(AHEAD_KEY)] = undefined
  if (ahead !== undefined && entry.eval === undefined && ahead.memoryMb === memoryMb && ahead.worker.threadId !== -1) return ahead.worker
  void ahead?.worker.terminate()
  return undefined
}

const start = (entry: Entry, memoryMb: number): Slot => {
  const { Worker } = workerThreads()
  // (a loader starts one ahead with these options: tooling/bundle)
  const worker = takeAhead(entry, memoryMb) ?? new Worker(entry.eval ?? entry.url, {
    ...(entry.eval !== undefined ? { eval: true } : {}),
    workerData: { [WORKER_KEY]: true },
    resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    // not the process's own options (a worker inherits them by default): `--input-type`, `--eval`
    // or `--import` there are the command line's, and stop a worker from starting
    execArgv: [...(entry.execArgv ?? [])],
    // the command's own arguments (a worker has none by default): the single-file bundle finds its
    // code cache by `argv[2]`, so a scorer starts on compiled code
    argv: process.argv.slice(2)
  })
  let resolveReady!: () => void
  let rejectReady!: (e: Error) => void
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve
    rejectReady = reject
  })
  // a worker that fails before it is ready must not be an unhandled rejection
  ready.catch(() => {})
  const slot: Slot = { worker, kind: kindOf(entry, memoryMb), memoryMb, ready, context: undefined, job: undefined, busy: false, dead: false, onEnd: undefined, onDone: undefined, golds: goldDecoder() }
  worker.on("message", (message: FromWorker) => {
    if (message.type === "ready") return resolveReady()
    // decoded even when late (another job's): a later answer may name a gold this one sent
    const answers = message.answers.map((a) => ({ index: a.index, outcome: slot.golds.decode(a.outcome) }))
    if (message.job === slot.job) slot.onDone?.(answers)
  })
  worker.on("error", (error: Error & { code?: string }) => {
    rejectReady(error)
    end(
      slot,
      error.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? { kind: "over-budget", message: `over the memory budget: its JavaScript heap reached the ${memoryMb} MB limit` }
        : { kind: "crashed", message: `the scorer crashed: ${error.message}` }
    )
  })
  worker.on("exit", (code) => {
    rejectReady(new Error(`the scorer ended (exit code ${code}) before it was ready`))
    end(slot, { kind: "crashed", message: `the scorer ended unexpectedly (exit code ${code})` })
  })
  // after the listeners: adding a 'message' listener refs the worker's port again
  worker.unref()
  slots.push(slot)
  return slot
}

/** An idle worker with these limits, a new one if there is room, or one once a job ends. */
const acquire = async (entry: Entry, memoryMb: number, workers: number, signal: AbortSignal): Promise<Slot> => {
  for (;;) {
    if (signal.aborted) {
      // a wake-up this job may have been given is the next one's (a spare one only wakes a job to look again)
      waiting.shift()?.()
      throw signal.reason
    }
    const kind = kindOf(entry, memoryMb)
    const idle = slots.find((s) => !s.busy && !s.dead && s.kind === kind)
    if (idle !== undefined) {
      idle.busy = true
      return idle
    }
    const live = slots.filter((s) => !s.dead)
    // Workers started for another budget or entry give their place when idle, as many as stand in
    // the way (ending only one could leave this job waiting for a wake-up no job would give).
    const others = live.filter((s) => !s.busy && s.kind !== kind)
    for (const other of others.slice(0, Math.max(0, live.length - workers + 1))) end(other, { kind: "crashed", message: "replaced" })
    if (slots.filter((s) => !s.dead).length < workers) {
      const slot = start(entry, memoryMb)
      slot.busy = true
      return slot
    }
    await waitTurn(signal)
  }
}

/**
 * Wait until a worker may be free (`waiting`), or until `signal` is aborted. An aborted wait leaves
 * the queue at once: left there, it took the wake-up of the next worker freed, and the job behind
 * it waited for good (the pool is the process's: any later scoring that had to wait).
 */
const waitTurn = (signal: AbortSignal): Promise<void> =>
  new Promise<void>((resolve) => {
    const wake = () => {
      signal.removeEventListener("abort", onAbort)
      resolve()
    }
    const onAbort = () => {
      const i = waiting.indexOf(wake)
      if (i >= 0) waiting.splice(i, 1)
      // (`acquire` sees the abort)
      resolve()
    }
    waiting.push(wake)
    signal.addEventListener("abort", onAbort, { once: true })
  })

/**
 * The worker's "ready", waited for at most `ms` (`startLimit`, on a clock of its own: a slow start
 * does not eat into the run's time): a scorer that never says it is ready (a loader stuck before
 * `serve`) is ended, and its job fails as having no scorer instead of waiting for good.
 */
const readyWithin = (slot: Slot, ms: number): Promise<void> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`it did not say it was ready within ${ms / 1000} s`)
      reject(error)
      end(slot, { kind: "no-scorer", message: error.message })
    }, ms)
    // the worker's own ref says whether the process waits (a job's does; `warm`'s does not)
    timer.unref()
  })
  return Promise.race([slot.ready, late]).finally(() => clearTimeout(timer))
}

/**
 * A worker with these limits started (or found idle), left idle once ready for the next job (one
 * that cannot start is the next job's failure to tell). Never keeps the process alive: a start no
 * scoring takes does not delay its exit.
 */
export const warm = async (entry: Entry, budget: Budget, workers: number): Promise<void> => {
  let slot: Slot
  try {
    slot = await acquire(entry, budget.memoryMb, workers, new AbortController().signal)
  } catch {
    return
  }
  await readyWithin(slot, startLimit(budget))
    .catch(() => {})
    .finally(() => release(slot))
}

/**
 * What a job gave: an outcome for each of its runs answered, in `works`' order, and why the job
 * ended before the others were (undefined when every run was answered).
 */
export interface Answers {
  readonly outcomes: ReadonlyArray<Outcome | undefined>
  readonly failure: Failure | undefined
}

/**
 * Run one job (one run, or a batch of small ones) on a worker under `budget`: each run's outcome,
 * and why the job has no more. The time budget is a run's: the job's clock starts again each time
 * runs are answered (a few a message), so a batch fails on time only when none of its runs is
 * answered within it.
 * `workers` is the most threads this job may find busy before it waits. Aborting `signal` ends the
 * job's worker at once.
 */
export const run = async (
  entry: Entry,
  context: ContextData,
  works: ReadonlyArray<Work>,
  budget: Budget,
  workers: number,
  signal: AbortSignal
): Promise<Answers> => {
  const outcomes: Array<Outcome | undefined> = works.map(() => undefined)
  const failed = (failure: Failure): Answers => ({ outcomes, failure })
  let slot: Slot
  try {
    slot = await acquire(entry, budget.memoryMb, workers, signal)
  } catch (e) {
    return failed({ kind: "crashed", message: `interrupted: ${String(e)}` })
  }
  // a job keeps the process alive while it waits for its worker and runs
  slot.worker.ref()
  try {
    await readyWithin(slot, startLimit(budget))
  } catch (e) {
    release(slot)
    return failed({ kind: "no-scorer", message: `the isolated scorer could not start: ${e instanceof Error ? e.message : String(e)}` })
  }
  if (slot.dead) {
    release(slot)
    return failed({ kind: "no-scorer", message: "the isolated scorer ended before it could score" })
  }
  // interrupted while its scorer started: the abort listener below would never hear it, and the job
  // would run to its time budget, its scorer busy all along for any later job in the process
  if (signal.aborted) {
    release(slot)
    return failed({ kind: "crashed", message: `interrupted: ${String(signal.reason)}` })
  }
  let id = contextIds.get(context)
  if (id === undefined) contextIds.set(context, (id = nextContext++))
  const post = (message: ToWorker) => slot.worker.postMessage(message)
  if (slot.context !== id) {
    post({ type: "context", id, edition: context.edition, gold: context.gold, lenient: context.lenient })
    slot.context = id
    slot.golds.reset()
  }
  const job = nextJob++
  slot.job = job
  const limit = budget.memoryMb * 2 ** 20
  return await new Promise<Answers>((resolve) => {
    let settled = false
    let left = works.length
    const finish = (failure: Failure | undefined) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearInterval(poll)
      signal.removeEventListener("abort", onAbort)
      release(slot)
      resolve({ outcomes, failure })
    }
    const overTime = () => end(slot, { kind: "over-budget", message: `over the time budget: not scored within ${budget.timeMs / 1000} s` })
    let timer = setTimeout(overTime, budget.timeMs)
    slot.onDone = (answers) => {
      if (settled) return
      for (const { index, outcome } of answers) {
        if (outcomes[index] !== undefined) continue
        outcomes[index] = outcome
        left--
      }
      if (left === 0) return finish(undefined)
      clearTimeout(timer)
      timer = setTimeout(overTime, budget.timeMs)
    }
    slot.onEnd = finish
    let polling = false
    const poll = setInterval(() => {
      // (Node 22.16 and 24 read a worker's heap from outside; before, V8's heap limit is the bound)
      if (polling || slot.dead || typeof slot.worker.getHeapStatistics !== "function") return
      polling = true
      slot.worker.getHeapStatistics().then(
        (s) => {
          polling = false
          const used = s.total_heap_size + s.external_memory
          if (used > limit && !settled) {
            end(slot, { kind: "over-budget", message: `over the memory budget: its scorer held ${megabytes(used)} MB, more than the ${budget.memoryMb} MB allowed` })
          }
        },
        () => {
          polling = false
        }
      )
    }, POLL_MS)
    const onAbort = () => end(slot, { kind: "crashed", message: "interrupted" })
    signal.addEventListener("abort", onAbort, { once: true })
    post({ type: "job", job, context: id, works } satisfies ToWorker)
  })
}

/** End every idle worker now (`Isolation.release`); a later job starts fresh ones. */
export const releaseIdle = (): void => {
  for (const slot of slots.filter((s) => !s.busy && !s.dead)) end(slot, { kind: "crashed", message: "released" })
}

/** True for a run's result that is a failure of its job (no outcome). */
export const isFailure = (r: Outcome | Failure): r is Failure => r.kind === "over-budget" || r.kind === "crashed" || r.kind === "no-scorer"

/** The threads this machine gives scoring: its cores, at most 4. */
export const defaultWorkers = (): number => {
  const os = process.getBuiltinModule("node:os")
  return Math.max(1, Math.min(4, typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length))
}
