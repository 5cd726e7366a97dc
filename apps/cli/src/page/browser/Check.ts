/**
 * The check page's work, in its worker: the dropped runs (and the edition and gold the page
 * embeds) put in the in-memory file tree, then what `stseval validate` and `stseval score --ci 95`
 * do with them, through the same packages: `Engine.loadContext` (the gold read and checked by its
 * format), `Engine.inputs` (runs told apart and loaded by `Submissions`, with its limits),
 * `Engine.scoreSubmission` (validated, aligned and scored), `Rank.rank`, `Signature.make` and
 * `Uncertainty.compute`; their text by the CLI's own renderers (`RunText`). Only the isolated
 * scorer is not the CLI's: the page's worker is the run's isolation (ended at the time budget).
 */
import { Issue, Registry } from "@stseval/formats"
import type { Submissions } from "@stseval/formats"
import { Engine, Rank, ResultJson, Signature, Uncertainty } from "@stseval/scoring"
import { Effect, Layer, Path } from "effect"
import * as TextView from "../../internal/TextView.js"
import * as RunText from "../../internal/RunText.js"
import * as Colour from "../../internal/Colour.js"
import * as Task from "../../internal/Task.js"
import * as ValidationJson from "../../internal/ValidationJson.js"
import type { Embedded } from "../Embedded.js"
import * as FileSystem from "./FileSystem.js"
import * as Vfs from "./Vfs.js"

/** A dropped file: its path as dropped (`Team_run1/STS.output.x.txt`) and its bytes. */
export interface Dropped {
  readonly path: string
  readonly bytes: Uint8Array
  /** the file's size, when the page did not read it (larger than the CLI reads: `Text.DEFAULT_MAX_BYTES`) */
  readonly size?: number | undefined
}

/** What the page shows: the two commands' text, and the JSON `score --ci 95 --json` would print. */
export interface Checked {
  readonly validate: string
  readonly valid: boolean
  readonly score: string | undefined
  readonly json: unknown
}

const GOLD_ROOT = "/.gold"
const TASK_ROOT = "/.task"

const bytesOfBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

/** The embedded edition and gold, put in the file tree once. */
let mounted: { readonly task: string; readonly gold: string | undefined } | undefined
const mount = (embedded: Embedded) => {
  if (mounted !== undefined) return mounted
  let task = embedded.task.id
  if (embedded.task.edition !== undefined) {
    task = `${TASK_ROOT}/${embedded.task.id}.json`
    Vfs.addFile(task, new TextEncoder().encode(JSON.stringify(embedded.task.edition)))
  }
  let gold: string | undefined
  if (embedded.gold !== undefined) {
    for (const f of embedded.gold.files) Vfs.addFile(`${GOLD_ROOT}/${f.path}`, bytesOfBase64(f.base64))
    gold = `${GOLD_ROOT}/${embedded.gold.name}`
  }
  return (mounted = { task, gold })
}

/**
 * Without gold, what can be checked: how each run is named and packaged and which files it holds
 * (`Submissions`' own issues); its lines are checked against a gold, which the page lacks.
 */
const packaging = (edition: Registry.TaskEdition, found: Submissions.Discovered): Checked => {
  const c = Colour.plain
  const runs = found.runs.map((r) =>
    [`${TextView.runLabel(r.meta)}  ${r.path}`, `  files: ${r.files.map((f) => f.path).join(", ") || "none"}`, ...TextView.issues(r.issues, c, { verbose: false })].join("\n")
  )
  const bad = found.runs.filter((r) => Issue.hasErrors(r.issues)).length
  const validate = [
    `${edition.id}  ${edition.title}`,
    "gold: none in this page: each run's name, packaging and files are checked, not its lines (the page checks lines and shows figures when made with `stseval page check --gold`)",
    "",
    ...runs.map((r) => `${r}\n`),
    ...TextView.issues(found.issues, c, { verbose: false, indent: "" }),
    `${found.runs.length} run(s): ${bad === 0 ? "named and packaged as the scorer expects" : `${bad} with errors`}`
  ].join("\n")
  return { validate, valid: bad === 0, score: undefined, json: undefined }
}

/** The top-level names of what was dropped (a file, a folder, a zip), in the order dropped. */
const topLevel = (dropped: ReadonlyArray<Dropped>): ReadonlyArray<string> => [...new Set(dropped.map((d) => d.path.split("/")[0]))]

/**
 * Check the dropped runs: `validate`'s text always, `score --ci 95`'s when the page embeds gold.
 * The dropped files are at the top of the tree, so that messages name them as dropped
 * (`Team_run1.txt:12`), as the CLI names a run given by a relative path.
 */
export const check = (
  embedded: Embedded,
  dropped: ReadonlyArray<Dropped>,
  /** `scored`: every run is read and scored; what is left (the intervals) has no budget in the CLI either */
  progress: (stage: string, scored: boolean) => void
) =>
  Effect.gen(function* () {
    const where = mount(embedded)
    const paths = topLevel(dropped)
    for (const p of Vfs.list("/") ?? []) if (!p.startsWith(".")) Vfs.remove(`/${p}`)
    for (const d of dropped) Vfs.addFile(`/${d.path}`, d.bytes, d.size ?? d.bytes.length)
    const edition = yield* Registry.resolve(where.task)
    if (where.gold === undefined) {
      progress("reading the runs", false)
      return packaging(edition, yield* Engine.inputs(edition, paths))
    }
    progress("reading the gold", false)
    const context = yield* Engine.loadContext({ task: edition, gold: where.gold })
    const shown: Engine.Context = { ...context, goldPath: embedded.gold?.name }
    progress("reading the runs", false)
    const found = yield* Engine.inputs(edition, paths)
    // every run here, whatever its size: this worker is the run's isolation, ended by the page at the time budget
    const runs = yield* Effect.forEach(found.runs, (submission, i) => {
      progress(`checking run ${i + 1} of ${found.runs.length}`, false)
      return Engine.scoreSubmission(shown, submission, { inThreadMb: Number.POSITIVE_INFINITY })
    })
    const results: Engine.Results = {
      ...shown,
      issues: found.issues,
      runs,
      ranked: Rank.rank(runs, { runLimit: edition.runLimit }),
      signature: Signature.make(edition, context.gold)
    }
    const c = Colour.plain
    const options = { verbose: false, width: undefined }
    const validate = RunText.validation(results, c, options, Task.nothingToScore(results, paths)).join("\n")
    const valid = ValidationJson.document(results).valid
    progress("computing the intervals (1,000 resamples)", true)
    const computed = Uncertainty.compute(results, { level: Uncertainty.parseLevel(95), others: true })
    const intervals = Uncertainty.isError(computed) ? undefined : computed
    const score = RunText.scores(results, edition, { style: edition.published.style, decimals: undefined }, c, { ...options, intervals }).join("\n")
    return { validate, valid, score, json: ResultJson.resultsToJson({ ...results, ranked: undefined }, intervals) } satisfies Checked
  }).pipe(Effect.provide(Layer.mergeAll(FileSystem.layer, Path.layer)))
