/**
 * A small run scored on the engine's own thread, under the same checks and the same budget as in
 * an isolated scorer. Starting a scorer (a thread loading the reading and checking code, about
 * 50-100 ms of CPU) and sending a run there and back cost more than reading and checking a run of
 * a few hundred KB, so a run small on disk is handled here:
 *
 * - the checks are the scorer's own (`worker.ts`' `run`: the same open-once reads, links refused,
 *   sizes capped);
 * - time: the reading is raced with the run's time budget, and the checking, synchronous, runs
 *   under node:vm's timeout with the time left (V8 ends a script at its timeout wherever it is, in
 *   whatever function it called): a run over its time fails as it does in a scorer;
 * - memory: only runs of at most `Isolation.Options.inThreadMb` on disk (1 MiB by default), not zips,
 *   come here (`Engine`): reading and checking one holds a small multiple of its bytes, below the
 *   smallest memory budget (`Isolation.MIN_MEMORY_MB`), so the budget holds without a watch;
 * - one run never harms another: a throw is the run's failure, as in a scorer.
 *
 * @internal
 */
import type * as Vm from "node:vm"
import type { Context } from "../Engine.js"
import * as Isolation from "../Isolation.js"
import type { Budget, Failure } from "./pool.js"
import type { Outcome, Work } from "./protocol.js"
import { isTimeout, run } from "./worker.js"
import type { Loaded } from "./worker.js"

const KEY = "stseval.scoring.inThread"
let script: Vm.Script | undefined

/** node:vm, or undefined where the platform has none (the check page's shim throws for it). */
const vmOf = (): typeof Vm | undefined => {
  try {
    return process.getBuiltinModule("node:vm")
  } catch {
    return undefined
  }
}

/** Whether a run of `mb` MiB on disk is scored on the calling thread (`Isolation.Options.inThreadMb`; 0: never). */
export const scoredHere = (mb: number, options: Isolation.Options): boolean => {
  const limit = options.inThreadMb ?? Isolation.IN_THREAD_MB
  return limit > 0 && mb <= limit
}

/**
 * `f()`, ended by V8 once `ms` have passed (node:vm's timeout: the thread's watchdog terminates the
 * script, and every function it called, wherever it is).
 */
export const underTimeout = <A>(f: () => A, ms: number): A => {
  const vm = vmOf()
  // no node:vm (the check page's browser worker): that worker is the run's isolation, ended by the page at the budget
  if (vm === undefined) return f()
  script ??= new vm.Script(`globalThis[Symbol.for(${JSON.stringify(KEY)})]()`, { filename: "stseval-in-thread.js" })
  const store = globalThis as Record<symbol, unknown>
  store[Symbol.for(KEY)] = f
  try {
    return script.runInThisContext({ timeout: Math.max(1, Math.floor(ms)), breakOnSigint: false }) as A
  } finally {
    store[Symbol.for(KEY)] = undefined
  }
}

const loaded = new WeakMap<Context, Loaded>()
const loadedOf = (context: Context): Loaded => {
  let l = loaded.get(context)
  if (l === undefined) loaded.set(context, (l = { id: 0, edition: context.edition, gold: context.gold, lenient: context.lenient === true }))
  return l
}

/** The time budget's failure, worded as a scorer's (`pool.ts`). */
const overTime = (budget: Budget): Failure => ({ kind: "over-budget", message: `over the time budget: not scored within ${budget.timeMs / 1000} s` })

/** Score one small run here under `budget`: its outcome, or the failure saying why it has none. */
export const scoreInThread = async (context: Context, work: Work, budget: Budget): Promise<Outcome | Failure> => {
  const deadline = performance.now() + budget.timeMs
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<Failure>((resolve) => {
    timer = setTimeout(() => resolve(overTime(budget)), budget.timeMs)
  })
  try {
    return await Promise.race([
      run(loadedOf(context), work, (f) => {
        const left = deadline - performance.now()
        if (left <= 0) throw Object.assign(new Error("out of time"), { code: "ERR_SCRIPT_EXECUTION_TIMEOUT" })
        return underTimeout(f, left)
      }),
      late
    ])
  } catch (e) {
    if (isTimeout(e) || isTimeout((e as { cause?: unknown } | undefined)?.cause)) return overTime(budget)
    return { kind: "crashed", message: `the scorer crashed: ${e instanceof Error ? e.message : String(e)}` }
  } finally {
    clearTimeout(timer)
  }
}
