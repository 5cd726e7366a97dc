// Worker threads for the resampling pass's sums and rank walks (sumsKernel.ts, rankSums.ts,
// WebAssembly in shared memory). One pool of workers serves both; the calling thread works too
// and then waits (Atomics.wait), so the public functions stay synchronous.
//
// Work is split into units (blocks of runs, chunks of resamples) claimed from a shared counter,
// ctl[0]; a unit's output depends only on the unit, so whoever computes it writes the same bytes.
// status[u] = 1 + the thread that finished unit u (0 = the caller), ctl[1] = units done.
import type * as OsModule from "node:os"
import type * as WorkerThreadsModule from "node:worker_threads"

/**
 * A Node built-in module through `process.getBuiltinModule`, or undefined elsewhere: a static import
 * of node:worker_threads would break the package in browsers, a dynamic one make the kernels async.
 */
const nodeModule = <A>(id: string): A | undefined => {
  try {
    const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule
    return typeof get === "function" ? (get(id) as A | undefined) : undefined
  } catch {
    return undefined
  }
}

/**
 * A worker's loop, as plain JavaScript source (a worker needs a script; this keeps it independent of
 * how the package is bundled): claim units from ctl[0] until none is left, compute each, and mark it
 * done exactly as the caller's `runUnit` does. A "wasm" job calls the sums of the module it keeps
 * instantiated over the shared memory (`instances`); a "js" job a kernel compiled from its source.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads")
const kernels = new Map()
let exports
parentPort.on("message", (job) => {
  let kernel
  if (job.kind === "wasm") {
    if (job.module !== undefined) exports = new WebAssembly.Instance(job.module, { env: { memory: job.memory } }).exports
    kernel = exports.sums
  } else {
    kernel = kernels.get(job.source)
    if (kernel === undefined) kernels.set(job.source, (kernel = new Function("return (" + job.source + ")")()))
  }
  const ctl = new Int32Array(job.control, job.controlOffset, 2)
  const status = new Int32Array(job.control, job.statusOffset, job.units)
  for (;;) {
    const u = Atomics.add(ctl, 0, 1)
    if (u >= job.units) break
    kernel(u, ...job.args)
    if (Atomics.compareExchange(status, u, 0, job.thread + 1) === 0) Atomics.add(ctl, 1, 1)
    Atomics.notify(ctl, 1)
  }
})
`

type Worker = InstanceType<typeof WorkerThreadsModule["Worker"]>

/** Idle workers kept between jobs (starting one costs tens of ms) until `release`; unref'd, so never keep the process alive. */
const pool: Array<Worker> = []

const workers = (wanted: number): ReadonlyArray<Worker> => {
  const wt = nodeModule<typeof WorkerThreadsModule>("node:worker_threads")
  if (wt === undefined) return []
  try {
    while (pool.length < wanted) {
      const w = new wt.Worker(WORKER_SOURCE, { eval: true })
      w.unref()
      // A worker that fails is dropped, the units it claimed redone by the caller (below); a defect
      // (a kernel not self-contained, say), said on stderr: right results, after STALL_MS, on one thread.
      w.on("error", (error: unknown) => {
        const i = pool.indexOf(w)
        if (i >= 0) pool.splice(i, 1)
        const message = error instanceof Error ? error.message : String(error)
        process.emitWarning(`a worker thread failed (${message}); its share of the work is done on the calling thread`, { code: "STSEVAL_WORKER_FAILED" })
      })
      pool.push(w)
    }
  } catch {
    // no (more) threads available: use what there is
  }
  return pool.slice(0, wanted)
}

/** Ends the idle workers: each holds its last job's memories (the sums' instance, the walks' arrays) until its own collector runs, which seldom runs in a worker. */
export const release = (): void => pool.splice(0).forEach((w) => void w.terminate())

/** The threads asked for (1 to 64), else every available core (at most 8), or 1 for jobs under `minWork`. */
export const count = (asked: number | undefined, work: number, minWork: number): number => {
  if (asked !== undefined) return Math.max(1, Math.min(64, Math.floor(asked)))
  const os = work < minWork ? undefined : nodeModule<typeof OsModule>("node:os")
  return os === undefined ? 1 : Math.max(1, Math.min(8, os.availableParallelism()))
}

/**
 * Per worker, the module and memory of the instance it keeps: a "wasm" job over the same two (each
 * call of one pass's sums) sends neither, and is not instantiated again there. The memory is held
 * weakly, so that this does not keep it alive.
 */
const instances = new WeakMap<Worker, { readonly module: unknown; readonly memory: WeakRef<object> }>()

/** Per worker, whether its last job is done: a worker still on another (a pass's walks) is not sent one, whose units the caller does then. */
const finished = new WeakMap<Worker, () => boolean>()

/** Tests only: the "wasm" messages that carried their module and memory (each instantiated by its worker). */
export const sent = { instances: 0 }

/** If the workers finish nothing for this long, the caller redoes their unfinished units itself. */
const STALL_MS = 2000

export interface Job {
  readonly units: number
  /** Computes one unit on the calling thread. */
  readonly unit: (u: number) => void
  /** What each helper thread is sent, besides the control words. */
  readonly message: () => Record<string, unknown>
  readonly threads: number
  readonly progress?: ((unitsDone: number) => void) | undefined
  /** Tests only: false leaves every unit to the helpers (when there are any). */
  readonly callerWorks?: boolean | undefined
  /** Tests only: per unit, 1 + the index of the thread that computed it (0 = the caller). */
  readonly onDone?: ((unitThreads: Int32Array) => void) | undefined
}

/** A computation in steps (Intervals' passes): it yields the job it leaves to the helpers (`start`'s; undefined: a point where another may go on here), joins it when resumed, returns its result. */
export type Steps<A> = Generator<ReturnType<typeof start> | undefined, A, void>

/**
 * Runs several computations to their ends, interleaved: while one's job runs on the helpers, the
 * others go on here; it goes on once its job is done (first, and until its next job), or when all wait.
 */
export const interleave = <A>(all: ReadonlyArray<Steps<A>>): Array<A> => {
  const at = all.map((steps) => steps.next())
  const waits = (i: number) => (at[i].done === true ? undefined : at[i].value)
  const unfinished = () => [...all.keys()].filter((i) => at[i].done !== true)
  let last = -1
  for (let live = unfinished(); live.length > 0; live = unfinished()) {
    last = live.find((i) => waits(i)?.done() === true) ?? (live.includes(last) && waits(last) === undefined ? last : undefined) ?? live.find((i) => waits(i) === undefined) ?? live[0]
    at[last] = all[last].next()
  }
  return at.map((r) => r.value as A)
}

/**
 * Starts `units` units on up to `threads - 1` helpers; the caller works on them too at `join`, which
 * returns when all are done (all of them, without SharedArrayBuffer or worker threads).
 */
export const start = (job: Job) => {
  const { units } = job
  // the control words: ctl = [next unit, units done], then status
  const buffer = typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(8 + 4 * units) : new ArrayBuffer(8 + 4 * units)
  const ctl = new Int32Array(buffer, 0, 2)
  const status = new Int32Array(buffer, 8, units)
  const runUnit = (u: number) => {
    job.unit(u)
    if (Atomics.compareExchange(status, u, 0, 1) === 0) Atomics.add(ctl, 1, 1)
  }
  const helpers = job.threads > 1 && buffer instanceof SharedArrayBuffer ? workers(job.threads - 1).filter((w) => finished.get(w)?.() !== false) : []
  const done = () => Atomics.load(ctl, 1) >= units
  helpers.forEach((w, t) => {
    finished.set(w, done)
    const message = job.message()
    const kept = instances.get(w)
    if (message.kind === "wasm" && kept !== undefined && kept.module === message.module && kept.memory.deref() === message.memory) message.module = message.memory = undefined
    else if (message.kind === "wasm") {
      instances.set(w, { module: message.module, memory: new WeakRef(message.memory as object) })
      sent.instances++
    }
    w.postMessage({ ...message, control: buffer, units, thread: t + 1, controlOffset: ctl.byteOffset, statusOffset: status.byteOffset })
  })
  const join = () => {
    while (job.callerWorks !== false || helpers.length === 0) {
      const u = Atomics.add(ctl, 0, 1)
      if (u >= units) break
      runUnit(u)
      job.progress?.(Atomics.load(ctl, 1))
    }
    // Wait for the units the workers claimed. After a long stall (a worker that failed, or never got
    // CPU time) redo whatever is unfinished here: a unit's output does not depend on who computes it,
    // so a late worker writing the same unit writes the same bytes.
    for (;;) {
      const unitsDone = Atomics.load(ctl, 1)
      if (unitsDone >= units) break
      if (Atomics.wait(ctl, 1, unitsDone, STALL_MS) === "timed-out" && Atomics.load(ctl, 1) === unitsDone) {
        for (let u = 0; u < units; u++) if (Atomics.load(status, u) === 0) runUnit(u)
      }
      job.progress?.(Atomics.load(ctl, 1))
    }
    job.onDone?.(status.slice())
  }
  return { done, join }
}
