/**
 * The messages between the engine and its isolated scorers (worker threads; see `Isolation`).
 * Everything here crosses a thread by structured clone: plain objects, strings and typed arrays.
 *
 * @internal
 */
import type { Files, Gold, Issue, Registry, Submissions } from "@stseval/formats"
import type { RunValidation } from "../Validation.js"

/** The key of `workerData` that makes a program started as a worker serve as a scorer. */
export const WORKER_KEY = "stsevalScoringWorker"

/** The `globalThis` key (a `Symbol.for`) of a loader's function that saves a scorer's code cache (`Isolation.prestart`). */
export const SAVE_CACHE_KEY = "stseval.scoring.saveCodeCache"

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

/** `index` is the run's place in its job's `works`. */
export type FromWorker = { readonly type: "ready" } | { readonly type: "done"; readonly job: number; readonly index: number; readonly outcome: Outcome }

export type ToWorker = ContextMessage | JobMessage
