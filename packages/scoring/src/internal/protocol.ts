/**
 * The messages between the engine and its isolated scorers (worker threads; see `Isolation`).
 * Everything here crosses a thread by structured clone: plain objects, strings and typed arrays.
 *
 * @internal
 */
import type { Files, Gold, Issue, Registry, Submissions } from "@stseval/formats"
import type { Aligned, RunValidation } from "../Validation.js"

/** The key of `workerData` that makes a program started as a worker serve as a scorer. */
export const WORKER_KEY = "stsevalScoringWorker"

/** The `globalThis` key (a `Symbol.for`) of a loader's function that saves a scorer's code cache (`Isolation.scorerThread`). */
export const SAVE_CACHE_KEY = "stseval.scoring.saveCodeCache"

/** The `globalThis` key (a `Symbol.for`) of a scorer a loader started ahead, `{ worker, memoryMb }` (`Isolation.scorerThread`). */
export const AHEAD_KEY = "stseval.scoring.scorerAhead"

/** What a worker scores against: the edition and gold the engine loaded, sent once per worker. */
export interface ContextMessage {
  readonly type: "context"
  readonly id: number
  readonly edition: Registry.TaskEdition
  readonly gold: Gold.Gold
  readonly lenient: boolean
}

/** One run to read and validate. */
export type Work =
  /** an entry of a submissions folder (`Submissions.loadEntry`): its id is given later, by `Submissions.settle` */
  | {
      readonly kind: "entry"
      readonly folder: string
      readonly name: string
      readonly within: Files.Within
      readonly options: Submissions.DiscoverOptions
    }
  /** a run given by path (`Submissions.loadRun`) */
  | { readonly kind: "path"; readonly path: string; readonly options: Submissions.DiscoverOptions }
  /** a run already read (the watcher reads and hashes it first): only validated here */
  | { readonly kind: "submission"; readonly submission: Submissions.Submission }

/**
 * A job: one run, or a batch of small runs (read a few at once, so that their file-system calls
 * overlap), each answered on its own as soon as it is done.
 */
export interface JobMessage {
  readonly type: "job"
  readonly job: number
  readonly context: number
  readonly works: ReadonlyArray<Work>
}

/** What became of one run in a worker. */
export type Outcome =
  /** the entry is no run (a broken link, a plain file where runs are folders) */
  | { readonly kind: "skipped"; readonly issue: Issue.Issue }
  /** read and validated; `meta` has no id for a folder's entry */
  | {
      readonly kind: "run"
      readonly meta: Omit<Submissions.RunMeta, "id"> & { readonly id?: string }
      readonly path: string
      readonly validation: RunValidation
    }
  /** the run could not be read at all (the file system's error), or the validator threw */
  | { readonly kind: "error"; readonly message: string; readonly io: boolean }

/**
 * A scored dataset's aligned gold crosses the thread once per worker: every run of a dataset is
 * given the same gold array (`Validation`), and sending it with each run cloned it again (1,379
 * numbers a STS-B run, a third of a message's cost). The first outcome that holds an array sends
 * it with a number (`goldRef`), the later ones the number alone (`goldOf`, `gold` then empty); the
 * engine's side keeps the arrays by number for that worker, until it sends another context
 * (`goldDecoder`). Numbers are never reused by a worker, so an answer of an earlier context cannot
 * be given another's gold; an unknown number is the run's internal error.
 */
type WireAligned = Aligned & { readonly goldRef?: number; readonly goldOf?: number }

const NO_GOLD: Float64Array = new Float64Array(0)

const withAligned = (outcome: Outcome & { readonly kind: "run" }, f: (a: WireAligned) => WireAligned): Outcome => ({
  ...outcome,
  validation: { ...outcome.validation, datasets: outcome.validation.datasets.map((d) => (d.aligned === undefined ? d : { ...d, aligned: f(d.aligned) })) }
})

/** The worker's side: `encode` gives an outcome as it is sent (`reset` for a new context). */
export const goldEncoder = () => {
  let sent = new WeakMap<object, number>()
  let next = 1
  return {
    reset: () => {
      sent = new WeakMap()
    },
    encode: (outcome: Outcome): Outcome =>
      outcome.kind !== "run"
        ? outcome
        : withAligned(outcome, (a) => {
            const known = sent.get(a.gold)
            if (known !== undefined) return { ...a, gold: NO_GOLD, goldOf: known } as WireAligned
            const ref = next++
            sent.set(a.gold, ref)
            return { ...a, goldRef: ref }
          })
  }
}

/** The engine's side, one per worker: `decode` puts back each gold sent by number (`reset`: a new context). */
export const goldDecoder = () => {
  const golds = new Map<number, Aligned["gold"]>()
  const reset = () => golds.clear()
  const decode = (outcome: Outcome): Outcome => {
    if (outcome.kind !== "run") return outcome
    let unknown = false
    const decoded = withAligned(outcome, ({ goldRef, goldOf, ...a }) => {
      if (goldRef !== undefined) golds.set(goldRef, a.gold)
      if (goldOf === undefined) return a
      const gold = golds.get(goldOf)
      if (gold === undefined) unknown = true
      return { ...a, gold: gold ?? a.gold } as Aligned
    })
    return unknown ? { kind: "error", message: "internal error: the scorer sent a gold the engine does not know", io: false } : decoded
  }
  return { reset, decode }
}

/** `index` is the run's place in its job's `works`. */
export interface Answer {
  readonly index: number
  /** as sent (`goldEncoder`) */
  readonly outcome: Outcome
}

/**
 * Runs answered, a few per message (`worker.ts`' `serve`: a message per run cost as much CPU as
 * reading a small run).
 */
export type FromWorker = { readonly type: "ready" } | { readonly type: "done"; readonly job: number; readonly answers: ReadonlyArray<Answer> }

export type ToWorker = ContextMessage | JobMessage
