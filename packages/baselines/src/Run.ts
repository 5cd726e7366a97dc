/**
 * A baseline's output as a run in the task's own submission format (SICK run file, STS output
 * files, STS-B, SemRel `pred_<lang>.csv`s).
 *
 * @since 0.1.0
 */
import { Glue, Registry, SemRel, Sick, Sts } from "@stseval/formats"
import type { Sick as SickTypes } from "@stseval/formats"

/**
 * A baseline's output, by the shape of run its edition takes.
 *
 * @since 0.1.0
 */
export type BaselineRun =
  | {
      readonly _tag: "sick"
      readonly rows: ReadonlyArray<{
        readonly pairId: string
        readonly entailment?: SickTypes.EntailmentLabel | undefined
        readonly relatedness?: number | undefined
      }>
    }
  | { readonly _tag: "sts"; readonly datasets: ReadonlyArray<{ readonly dataset: string; readonly scores: ArrayLike<number> }> }
  | { readonly _tag: "stsb"; readonly scores: ArrayLike<number> }
  | {
      readonly _tag: "semrel"
      readonly datasets: ReadonlyArray<{ readonly language: string; readonly pairIds: ReadonlyArray<string>; readonly scores: ArrayLike<number> }>
    }

/**
 * The shape of run an edition takes (a `BaselineRun`'s tag).
 *
 * @since 0.5.0
 */
export type Shape = BaselineRun["_tag"]

/**
 * The run `edition` takes, as its formats declare it (`Format.baselineRun`; no name decides):
 * `sick` when a dataset is SICK's, the shape all datasets declare when they agree, else `sts`.
 *
 * @example
 * ```ts
 * import { Run } from "@stseval/baselines"
 * import { Registry } from "@stseval/formats"
 *
 * Run.shapeOf(Registry.get("stsb")!) // "stsb"
 * Run.shapeOf(Registry.get("sts2017")!) // "sts"
 * ```
 * @since 0.5.0
 */
export const shapeOf = (edition: Registry.TaskEdition): Shape => {
  const declared = edition.datasets.map((d) => Registry.formatOf(edition, d).baselineRun)
  if (declared.includes("sick")) return "sick"
  const [first] = declared
  return first !== undefined && declared.every((s) => s === first) ? first : "sts"
}

/**
 * The file format of an STS Benchmark run: `stseval` one score per line of the csv (default), or
 * `glue` the GLUE benchmark's `STS-B.tsv` (`index<TAB>prediction`, values 0-5).
 *
 * @since 0.1.0
 */
export type Format = "stseval" | "glue"

/**
 * The team, run number and primary flag a baseline's run is named with.
 *
 * @since 0.1.0
 */
export interface RunName {
  /** team name (default "baseline") */
  readonly team?: string
  /** run number (default 1) */
  readonly run?: number
  /** primary run (default true; SICK marks it in the file name) */
  readonly primary?: boolean
}

/**
 * One file of a run: a path relative to the output folder, and its contents.
 *
 * @since 0.1.0
 */
export interface RunFile {
  readonly path: string
  readonly contents: string
}

/**
 * The files of a run, named `<team>_run<N>[primary]`: SICK one `<name>.txt` (`NA` for a subtask
 * not taken), STS a folder of `STS.output.<dataset>.txt`, STS-B one file or GLUE's
 * `<name>/STS-B.tsv` (values outside 0-5 throw, as GLUE refuses them), SemRel `pred_<lang>.csv`s.
 *
 * @example
 * ```ts
 * import { Run } from "@stseval/baselines"
 *
 * // STS: one STS.output.<dataset>.txt per dataset, in a folder named after the run
 * const files = Run.toRun({ _tag: "sts", datasets: [{ dataset: "headlines", scores: [4.6, 3.9] }] }, { team: "baseline", run: 1 })
 * files.map((f) => f.path) // ["baseline_run1primary/STS.output.headlines.txt"]
 * ```
 * @since 0.1.0
 */
export const toRun = (run: BaselineRun, name?: RunName, options: { readonly format?: Format } = {}): ReadonlyArray<RunFile> => {
  const team = name?.team ?? "baseline"
  const n = name?.run ?? 1
  const primary = name?.primary ?? true
  // the primary flag travels in the name (`Team_run1primary`), as the submissions reader expects
  const base = `${team}_run${n}${primary ? "primary" : ""}`
  // a programmer's error: the CLI refuses --format glue for an edition that is not the STS Benchmark
  if (options.format === "glue" && run._tag !== "stsb") throw new RangeError(`the GLUE format is for STS Benchmark runs, not ${run._tag}`)
  switch (run._tag) {
    case "sick":
      return [
        {
          path: `${base}.txt`,
          contents: Sick.writeRun(run.rows.map((r) => ({ pairId: r.pairId, entailment: r.entailment, relatedness: r.relatedness })))
        }
      ]
    case "sts":
      return run.datasets.map((d) => ({ path: `${base}/STS.output.${d.dataset}.txt`, contents: Sts.writeOutput(d.scores) }))
    case "stsb":
      return options.format === "glue"
        ? [{ path: `${base}/${Glue.STSB_FILE}`, contents: Glue.writeStsb(run.scores) }]
        : [{ path: `${base}.txt`, contents: Sts.writeOutput(run.scores) }]
    case "semrel":
      return run.datasets.map((d) => ({
        path: `${base}/${SemRel.runFileName(d.language)}`,
        contents: SemRel.writeRun(d.pairIds.map((pairId, i) => ({ pairId, score: d.scores[i] })))
      }))
  }
}

/**
 * The dataset name of an STS input file (`STS.input.track5.en-en.txt` -> `track5.en-en`), or
 * undefined when the name does not follow the convention.
 *
 * @example
 * ```ts
 * import { Run } from "@stseval/baselines"
 *
 * Run.datasetOf("STS.input.track5.en-en.txt") // "track5.en-en"
 * ```
 * @since 0.1.0
 */
export const datasetOf = (fileName: string): string | undefined => /^STS(?:2016)?\.input\.(.+)\.txt$/.exec(fileName)?.[1]

/**
 * The two languages of an STS 2017 track name (`track4a.es-en` -> ["es", "en"]), if it names them.
 *
 * @example
 * ```ts
 * import { Run } from "@stseval/baselines"
 *
 * Run.languagesOf("track4a.es-en") // ["es", "en"]
 * Run.languagesOf("headlines") // undefined
 * ```
 * @since 0.1.0
 */
export const languagesOf = (dataset: string): readonly [string, string] | undefined => {
  const m = /(?:^|\.)([a-z]{2})-([a-z]{2})$/.exec(dataset)
  return m === null ? undefined : [m[1], m[2]]
}
