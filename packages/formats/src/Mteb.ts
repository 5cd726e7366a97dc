

/**
 * MTEB (Massive Text Embedding Benchmark) per-pair predictions, imported as runs.
 *
 * With a `prediction_folder`, MTEB saves one file per task, `<task name>_predictions.json`
 * (`AbsTask._save_task_predictions` in embeddings-benchmark/mteb):
 *
 * ```json
 * { "mteb_model_meta": { "model_name": "org/model", "revision": "abc123" },
 *   "<hf subset>": { "<split>": { "cosine_scores": [...], "manhattan_distances": [...],
 *                                 "euclidean_distances": [...], "similarity_scores": [...] | null } } }
 * ```
 *
 * For STS tasks each list has one value per pair of the split, in the Hugging Face dataset's row
 * order (distances are negated, so larger = more similar; `similarity_scores` is the model's own
 * similarity, null when it has none). MTEB's main STS score is the Spearman of `cosine_scores`.
 *
 * There are no pair IDs: predictions are matched by position, which is safe only when MTEB's split
 * is one of our gold files row for row. `mappings` lists the (task, subset, split) that are: the
 * STS Benchmark, the six SemEval-2017 tracks, and SemRel's languages, each with its pair count
 * and MTEB's recorded mean gold score (its `descriptive_stats`), both checked against our gold
 * before anything is written. `unsupported` lists the STS tasks that are not, and why.
 *
 * The files are read in `mteb/predictions.ts`, the splits mapped in `mteb/mapping.ts`; here
 * they become runs.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import { Effect, FileSystem, Path, Schema } from "effect"
import type { PlatformError } from "effect/PlatformError"
import type * as Gold from "./Gold.js"
import * as Files from "./Files.js"
import * as Issue from "./Issue.js"
import type { Parsed } from "./Issue.js"
import { mappings, unsupported } from "./mteb/mapping.js"
import { parse, parseResults, scoresOf, SUFFIX } from "./mteb/predictions.js"
import type { PredictionsFile, ScoreKind } from "./mteb/predictions.js"
import * as Registry from "./Registry.js"
import type { TaskEdition } from "./Registry.js"
import { MAX_DESCRIPTION_LENGTH, MAX_TEAM_LENGTH } from "./Submissions.js"
import { Metrics, MetricValue, Spearman } from "@stseval/metrics"

export * from "./mteb/predictions.js"
export * from "./mteb/mapping.js"

/** The field of MTEB's results that is the Spearman of each kind of score (`AbsTaskSTS._calculate_scores`). */
const SPEARMAN_FIELD: Record<ScoreKind, "cosine_spearman" | "spearman" | "manhattan_spearman" | "euclidean_spearman"> = {
  cosine: "cosine_spearman",
  similarity: "spearman",
  manhattan: "manhattan_spearman",
  euclidean: "euclidean_spearman"
}

/** MTEB rounds its scores to 6 decimals on disk: a figure reproduced is within half a unit of the 6th, plus rounding of ours. */
const RESULTS_TOLERANCE = 1e-6

/**
 * One model's run for an edition, as files relative to the submissions folder.
 *
 * @since 0.1.0
 */
export interface ImportedRun {
  readonly edition: string
  readonly model: string
  /** the run's folder name (the model name with `/` and other unsafe characters made `_`) */
  readonly name: string
  /** `<name>/<run file>` ... and `<name>/run.json` (team = the model name) */
  readonly files: ReadonlyArray<{ readonly path: string; readonly contents: string }>
  /** the datasets the run has a file for */
  readonly datasets: ReadonlyArray<string>
  /** per dataset written: MTEB's main score beside the edition's official figure, and whether the order was checked */
  readonly figures: ReadonlyArray<ImportedFigures>
}

/**
 * What the import knows of one dataset it wrote: MTEB's main score (cosine Spearman) from its
 * results file, the same Spearman of the written scores against our gold (equal, or the dataset is
 * refused), and the edition's official figure of them (STS-B: Pearson), which is not MTEB's.
 *
 * @since 0.3.0
 */
export interface ImportedFigures {
  readonly dataset: string
  /** MTEB's figure from its results file (`cosine_spearman` for cosine scores, MTEB's main STS score), when the file is there */
  readonly mteb: { readonly field: string; readonly value: number; readonly file: string } | undefined
  /** the Spearman of the written scores against our gold, when the gold was given */
  readonly spearman: number | undefined
  /** the edition's official figure of the written scores (metric of the dataset's ranking), when the gold was given */
  readonly official: { readonly metric: string; readonly value: number | undefined }
  /** true when MTEB's figure was reproduced, so the predictions are in our gold's order */
  readonly orderChecked: boolean
}

/**
 * Which of MTEB's similarity scores an import takes.
 *
 * @since 0.1.0
 */
export interface ImportOptions {
  /** which similarity becomes the run (default `cosine`) */
  readonly scores?: ScoreKind
  /**
   * The edition's gold. Needed for SemRel (the run is written by PairID, taken from the gold in
   * order); for the others it checks the pair count and MTEB's mean gold score (without it, only
   * the edition's published pair count is checked).
   */
  readonly gold?: Gold.Gold
}

// A run's folder name: every output names the run by it, and file systems cap a name at 255 bytes.
const MAX_NAME_LENGTH = 100

/** The first 8 hex digits of the name's SHA-256: what tells two long names with the same start apart. */
const shortHash = (s: string): string => createHash("sha256").update(s).digest("hex").slice(0, 8)

/** `s` whole when it fits in `max` characters, else its start, `~` and a short hash of the whole. */
const clip = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 9)}~${shortHash(s)}`)

const safeName = (model: string) => clip(model.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "") || "model", MAX_NAME_LENGTH)

const mean = (xs: Float64Array): number => {
  let s = 0
  let n = 0
  for (const x of xs) {
    if (Number.isNaN(x)) continue
    s += x
    n++
  }
  return s / n
}

/**
 * The runs of `edition` in the predictions files: one per model (files of one model, e.g. its
 * `STS17_predictions.json` and `STSBenchmark_predictions.json`, are one run), with a `run.json`
 * whose team is the model name. A split that does not match the gold (pair count, MTEB's mean
 * gold score, or no gold for a SemRel language) is an error and not written; a task of
 * `unsupported` is a warning saying why; other tasks and subsets are ignored.
 *
 * @example
 * ```ts
 * import { Mteb, Registry } from "@stseval/formats"
 *
 * declare const files: ReadonlyArray<Mteb.PredictionsFile>
 * const { value, issues } = Mteb.toRuns(Registry.get("sts2017")!, files, { scores: "cosine" })
 * ```
 * @since 0.1.0
 */
export const toRuns = (edition: TaskEdition, files: ReadonlyArray<PredictionsFile>, options: ImportOptions = {}): Parsed<ReadonlyArray<ImportedRun>> => {
  const kind = options.scores ?? "cosine"
  const issues: Array<Issue.Issue> = []
  const byModel = new Map<string, Array<PredictionsFile>>()
  for (const f of files) {
    byModel.set(f.model, [...(byModel.get(f.model) ?? []), f])
    const why = unsupported[f.task]
    if (why !== undefined) issues.push(Issue.warning("unknown-file", f.file, `${f.task} predictions are not imported: ${why}`, { found: f.task }))
  }
  const wanted = mappings.filter((m) => m.edition === edition.id)
  const used = new Set<string>()
  const runs: Array<ImportedRun> = []
  for (const [model, modelFiles] of [...byModel].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const runFiles: Array<{ path: string; contents: string }> = []
    const datasets: Array<string> = []
    const figures: Array<ImportedFigures> = []
    let name = safeName(model)
    for (let k = 2; used.has(name); k++) name = `${safeName(model)}~${k}`
    for (const m of wanted) {
      const found = modelFiles.flatMap((f) => f.splits.filter((s) => f.task === m.task && s.subset === m.subset && s.split === m.split).map((s) => ({ f, s })))
      if (found.length === 0) continue
      const { f, s } = found[0]
      const where = `${f.file}: ${m.subset}.${m.split}`
      const spec = edition.datasets.find((d) => d.name === m.dataset)
      if (spec === undefined) continue
      const values = scoresOf(s.scores, kind)
      const g = options.gold?.datasets.find((d) => d.name === m.dataset)
      const goldScores = g?.kind === "scores" ? g : undefined
      const format = Registry.formatOf(edition, spec)
      if (format.writeRun === undefined) continue
      if (format.match === "id" && goldScores?.pairIds === undefined) {
        issues.push(
          Issue.error("missing-dataset", f.file, `${where}: a SemRel run is written by PairID, taken from the gold of ${m.dataset}, which was not given: not imported`, {
            field: m.dataset,
            expected: spec.gold
          })
        )
        continue
      }
      const expected = goldScores?.scores.length ?? m.pairs
      if (values.length !== expected) {
        issues.push(
          Issue.error("length-mismatch", f.file, `${where} has ${values.length} predictions; ${edition.id} ${m.dataset} has ${expected} pairs: not imported`, {
            field: `${m.subset}.${m.split}`,
            expected: `${expected} predictions`,
            found: `${values.length}`
          })
        )
        continue
      }
      if (goldScores !== undefined && m.goldMean !== undefined && Math.abs(mean(goldScores.scores) - m.goldMean) > 1e-9) {
        issues.push(
          Issue.error(
            "length-mismatch",
            f.file,
            `the gold of ${edition.id} ${m.dataset} (${goldScores.file}) is not MTEB's ${m.task} ${m.subset}: mean gold score ${mean(goldScores.scores)}, MTEB's ${m.goldMean}; matching by position would pair the wrong predictions, so ${m.dataset} is not imported`,
            { field: `${m.subset}.${m.split}`, expected: `mean gold score ${m.goldMean}`, found: String(mean(goldScores.scores)) }
          )
        )
        continue
      }
      // The order: a count and a mean survive any reordering (a shuffled STS-B file passes both and
      // scores r = 0.008), so MTEB's own Spearman of these predictions, from its results file, must
      // come out again against our gold
      const officialMetric = Registry.rankingOfDataset(edition, spec).metric
      const field = SPEARMAN_FIELD[kind]
      const entry = f.results?.scores[m.split]?.find((e) => e.hf_subset === m.subset)
      const mtebValue = entry?.[field] ?? (kind === "cosine" ? entry?.main_score : undefined)
      const resultsFile = `${f.file.slice(0, -SUFFIX.length) || f.task}.json`
      const mteb = mtebValue !== undefined ? { field, value: mtebValue, file: resultsFile } : undefined
      let spearman: number | undefined
      let official: number | undefined
      if (goldScores !== undefined) {
        const keep = Array.from(goldScores.scores, (_, i) => i).filter((i) => !Number.isNaN(goldScores.scores[i]))
        const gold = Float64Array.from(keep, (i) => goldScores.scores[i])
        const run = Float64Array.from(keep, (i) => values[i])
        const rho = Spearman.spearman(gold, run)
        spearman = MetricValue.isDefined(rho) ? rho.value : undefined
        const metric = Metrics.get(officialMetric)
        const figure = metric?.kind === "scores" ? metric.compute(gold, run) : undefined
        official = figure !== undefined && MetricValue.isDefined(figure) ? figure.value : undefined
      }
      if (mteb !== undefined && spearman !== undefined && !(Math.abs(spearman - mteb.value) <= RESULTS_TOLERANCE)) {
        issues.push(
          Issue.error(
            "unknown-pair",
            f.file,
            `${where}: against our gold of ${edition.id} ${m.dataset}, these predictions give a Spearman of ${spearman.toFixed(6)}, while MTEB's results file (${resultsFile}) records ${mteb.field} ${mteb.value} for them: the predictions are not in the gold's order (or not the run MTEB scored), and matching by position would pair the wrong scores; not imported`,
            { field: `${m.subset}.${m.split}`, expected: `${mteb.field} ${mteb.value} (MTEB's)`, found: spearman.toFixed(6) }
          )
        )
        continue
      }
      const orderChecked = mteb !== undefined && spearman !== undefined
      if (!orderChecked) {
        const why =
          goldScores === undefined
            ? "the gold was not at hand"
            : entry === undefined
              ? f.results === undefined
                ? `MTEB's results file ${resultsFile} is not beside the predictions`
                : `MTEB's results file ${resultsFile} has no ${m.split} scores for subset ${m.subset}`
              : `MTEB's results file ${resultsFile} has no ${field}`
        issues.push(
          Issue.warning(
            "lines-scored",
            f.file,
            `${where} matched to ${edition.id} ${m.dataset} by position, but the order could not be checked (${why}): only the pair count${goldScores !== undefined && m.goldMean !== undefined ? " and MTEB's mean gold score were" : " was"} checked, which a reordering keeps`,
            { field: `${m.subset}.${m.split}`, expected: `MTEB's ${m.task}.json beside the predictions, and the gold` }
          )
        )
      }
      runFiles.push({ path: `${name}/${spec.run}`, contents: format.writeRun({ ids: goldScores?.pairIds, scores: values }) })
      datasets.push(m.dataset)
      figures.push({ dataset: m.dataset, mteb, spearman, official: { metric: officialMetric, value: official }, orderChecked })
    }
    if (runFiles.length === 0) continue
    used.add(name)
    const sources = modelFiles.map((f) => f.file.split(/[\\/]/).pop()).join(", ")
    const revision = modelFiles.find((f) => f.revision !== undefined)?.revision
    // a run.json `stseval rank` accepts: the team within its length (a clipped name keeps a hash of
    // the whole, so two long model names stay two teams), the description within its own
    const runJson = {
      team: clip(model, MAX_TEAM_LENGTH),
      run: 1,
      primary: true,
      description: clip(
        `MTEB predictions (${kind === "similarity" ? "the model's similarity" : `${kind}`} scores) of ${model}${revision !== undefined ? ` at revision ${revision}` : ""}, from ${sources}`,
        MAX_DESCRIPTION_LENGTH
      )
    }
    runs.push({ edition: edition.id, model, name, files: [...runFiles, { path: `${name}/run.json`, contents: `${JSON.stringify(runJson, null, 2)}\n` }], datasets, figures })
  }
  // A dataset of the edition that MTEB has no split for (STS17 has no track 4b, the WMT es-en
  // pairs: mteb/tasks/sts/multilingual/sts17_crosslingual_sts.py `_LANGUAGES` lists es-en once,
  // track 4a) is one every imported run lacks: say what the edition's rule makes of that
  const uncovered = edition.datasets.filter((d) => !mappings.some((m) => m.edition === edition.id && m.dataset === d.name)).map((d) => d.name)
  if (runs.length > 0 && uncovered.length > 0 && !Registry.isRankedPerDataset(Registry.rankingOfDataset(edition, edition.datasets[0]))) {
    const consequence =
      edition.missingDataset === "no-official-score"
        ? `so an imported ${edition.id} run never has an official figure (it needs every dataset); its per-dataset figures are scored`
        : `so it counts as r = 0 in an imported run's official figure`
    issues.push(
      Issue.warning("missing-dataset", runs[0].files[0].path, `MTEB has no split for ${uncovered.join(", ")} of ${edition.id}: ${consequence}`, {
        field: uncovered.join(", "),
        expected: `MTEB predictions of ${uncovered.join(", ")}`,
        found: "none in MTEB"
      })
    )
  }
  return { value: runs, issues }
}

// MTEB's predictions of the largest STS split supported (SemRel's) are a few MB.
const MAX_PREDICTIONS_BYTES = 256 * 1024 * 1024

/**
 * Read predictions files: `path` is one `<task>_predictions.json` or a folder searched (three
 * levels deep) for such files. Unreadable or undecodable files are issues; the rest are returned.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Mteb } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // a results folder of MTEB (one model), or a single predictions file
 * const { value, issues } = await Effect.runPromise(Mteb.read("results/all-MiniLM-L6-v2").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const read = (path: string): Effect.Effect<Parsed<ReadonlyArray<PredictionsFile>>, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const pathApi = yield* Path.Path
    const found: Array<string> = []
    const walk = (dir: string, depth: number): Effect.Effect<void, PlatformError> =>
      Effect.gen(function* () {
        for (const name of (yield* fs.readDirectory(dir)).sort()) {
          const full = pathApi.join(dir, name)
          const info = yield* fs.stat(full)
          if (info.type === "Directory" && depth < 3 && !name.startsWith(".")) yield* walk(full, depth + 1)
          else if (info.type === "File" && name.endsWith(SUFFIX)) found.push(full)
        }
      })
    const info = yield* fs.stat(path)
    if (info.type === "Directory") yield* walk(path, 1)
    else found.push(path)
    const files: Array<PredictionsFile> = []
    const issues: Array<Issue.Issue> = []
    if (found.length === 0) issues.push(Issue.error("missing-dataset", path, `no MTEB predictions file (*${SUFFIX}) was found`, { expected: `<task>${SUFFIX}` }))
    for (const file of found) {
      // the one reader: a regular file only (a FIFO would hang, /dev/zero never end), capped
      const text = yield* Files.readText(file, { what: "the predictions file", maxBytes: MAX_PREDICTIONS_BYTES }).pipe(Effect.result)
      if (text._tag === "Failure") {
        issues.push(Files.toIssue(text.failure))
        continue
      }
      const parsed = parse(text.success, file)
      issues.push(...parsed.issues)
      if (parsed.value === undefined) continue
      // MTEB's own figures of these predictions, when its results file of the task is beside them
      const resultsPath = pathApi.join(pathApi.dirname(file), `${parsed.value.task}.json`)
      if (!(yield* fs.exists(resultsPath))) {
        files.push(parsed.value)
        continue
      }
      const resultsText = yield* Files.readText(resultsPath, { what: "MTEB's results file", maxBytes: MAX_PREDICTIONS_BYTES }).pipe(Effect.result)
      if (resultsText._tag === "Failure") {
        issues.push(Files.toIssue(resultsText.failure))
        files.push(parsed.value)
        continue
      }
      const results = parseResults(resultsText.success, resultsPath)
      issues.push(...results.issues)
      files.push(results.value !== undefined ? { ...parsed.value, results: results.value } : parsed.value)
    }
    return { value: files, issues }
  })

/**
 * A run that `write` would write over: its folder is already in the submissions folder. Nothing is
 * written.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Mteb } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * declare const runs: ReadonlyArray<Mteb.ImportedRun> // Mteb.toRuns's
 * const written = Mteb.write("submissions", runs).pipe(
 *   Effect.catchTag("RunExists", (e: Mteb.RunExists) => Effect.fail(`not imported: ${e.paths.length} run folders are already there`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.2.0
 */
export class RunExists extends Schema.TaggedError<RunExists>()("RunExists", {
  paths: Schema.Array(Schema.String),
  message: Schema.String
}) {}

/**
 * Write imported runs into a submissions folder (created if needed); returns the paths written.
 * A run whose folder is already there is never written over: when any is, nothing is written
 * (`RunExists` names them all), and each file is created new (`wx`), so a folder that appears
 * meanwhile is not written into either.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Mteb, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * declare const files: ReadonlyArray<Mteb.PredictionsFile>
 * const runs = Mteb.toRuns(Registry.get("stsb")!, files).value
 * const written = await Effect.runPromise(Mteb.write("submissions", runs).pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const write = (
  folder: string,
  runs: ReadonlyArray<ImportedRun>
): Effect.Effect<ReadonlyArray<string>, PlatformError | RunExists, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const pathApi = yield* Path.Path
    const existing: Array<string> = []
    for (const run of runs) {
      const target = pathApi.join(folder, run.name)
      if (yield* fs.exists(target)) existing.push(target)
    }
    if (existing.length > 0) {
      return yield* new RunExists({
        paths: existing,
        message: `${existing.length === 1 ? "a run folder is" : `${existing.length} run folders are`} already there: ${existing.join(", ")}; nothing was written (remove ${existing.length === 1 ? "it" : "them"}, or import into another --out)`
      })
    }
    const written: Array<string> = []
    for (const run of runs) {
      // each run folder whole or not at all (Files.writeFolder): a stopped import leaves no half run
      yield* Files.writeFolder(pathApi.join(folder, run.name), (staging) =>
        Effect.forEach(run.files, (f) =>
          Effect.gen(function* () {
            const inRun = pathApi.relative(run.name, f.path)
            yield* fs.makeDirectory(pathApi.dirname(pathApi.join(staging, inRun)), { recursive: true })
            yield* fs.writeFileString(pathApi.join(staging, inRun), f.contents, { flag: "wx" })
          })
        )
      )
      for (const f of run.files) written.push(pathApi.join(folder, f.path))
    }
    return written
  })
