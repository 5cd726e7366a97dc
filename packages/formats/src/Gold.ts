/**
 * An edition's gold: each dataset's gold file read with the matching parser (`Sts.parseGold`,
 * `StsBenchmark.parse`, `Sick.parseData`, `SemRel.parseData`). A missing or unreadable gold file is
 * an issue naming the file and the dataset (that dataset cannot be scored), never a failure; a
 * dataset whose gold is not public (`goldNotPublic`) says why.
 *
 * @since 0.1.0
 */
import { Effect, FileSystem, Path } from "effect"
import * as Files from "./Files.js"
import * as Issue from "./Issue.js"
import type { DatasetSpec, TaskEdition } from "./Registry.js"
import * as SemRel from "./SemRel.js"
import * as Sick from "./Sick.js"
import * as Sts from "./Sts.js"
import * as StsBenchmark from "./StsBenchmark.js"
import * as Text from "./Text.js"

/**
 * One dataset's gold. `issues` are this file's (decoding and parsing); when they hold an error the
 * gold is unreliable and the dataset must not be scored.
 *
 * @example
 * ```ts
 * import { Gold } from "@stseval/formats"
 *
 * declare const gold: Gold.Gold
 * const sizes = gold.datasets.map((d: Gold.GoldDataset) => [d.name, d.kind === "scores" ? d.annotated : d.pairs.length])
 * ```
 * @since 0.1.0
 */
export type GoldDataset =
  | {
      readonly kind: "scores"
      readonly name: string
      readonly file: string
      /** one entry per gold line (STS-B: per csv row; SemRel: per pair, in file order); NaN = not annotated */
      readonly scores: Float64Array
      /** number of annotated (scored) pairs */
      readonly annotated: number
      /** the pair ID of each score, when runs are matched by pair ID (`semrel-csv` gold); else undefined */
      readonly pairIds?: ReadonlyArray<string> | undefined
      readonly issues: ReadonlyArray<Issue.Issue>
    }
  | {
      readonly kind: "sick"
      readonly name: string
      readonly file: string
      readonly pairs: ReadonlyArray<Sick.SickPair>
      readonly issues: ReadonlyArray<Issue.Issue>
    }

/**
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Gold, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const gold: Gold.Gold = await Effect.runPromise(Gold.loadGold(Registry.get("sts2017")!, "data/sts2017/gold").pipe(Effect.provide(NodeServices.layer)))
 * gold.missing // datasets whose gold file is not there
 * ```
 * @since 0.1.0
 */
export interface Gold {
  readonly edition: string
  /** the datasets whose gold was read, in the edition's order */
  readonly datasets: ReadonlyArray<GoldDataset>
  /** datasets of the edition whose gold is missing or unreadable: they cannot be scored */
  readonly missing: ReadonlyArray<string>
  /** every issue: missing files, and each dataset's own issues */
  readonly issues: ReadonlyArray<Issue.Issue>
}

/**
 * The bytes (or text) of one dataset's gold file.
 *
 * @example
 * ```ts
 * import { Gold } from "@stseval/formats"
 *
 * const text: Gold.GoldText = { dataset: "track5.en-en", file: "STS.gs.track5.en-en.txt", content: "4.2\n1.0\n" }
 * ```
 * @since 0.1.0
 */
export interface GoldText {
  readonly dataset: string
  /** path for messages */
  readonly file: string
  readonly content: Uint8Array | string
}

/**
 * Read one dataset's gold from its content, pure. Applies `scoredLines` (only the first lines are
 * scored: STS 2017 track 6) and checks the annotated pairs against the edition's `pairs`.
 *
 * @example
 * ```ts
 * import { Gold, Registry } from "@stseval/formats"
 *
 * const spec = Registry.get("sts2017")!.datasets.find((d) => d.name === "track5.en-en")!
 * const dataset = Gold.parseDataset(spec, "STS.gs.track5.en-en.txt", "4.2\n1.0\n")
 * ```
 * @since 0.1.0
 */
export const parseDataset = (spec: DatasetSpec, file: string, content: Uint8Array | string): GoldDataset => {
  const decoded = typeof content === "string" ? Text.fromString(content, file) : Text.decode(content, file)
  const issues: Array<Issue.Issue> = [...decoded.issues]
  const text = decoded.value
  switch (spec.goldFormat) {
    case "sick": {
      const parsed = Sick.parseData(text)
      issues.push(...parsed.issues)
      const pairs = parsed.value.pairs
      const unscored = pairs.filter((p) => p.relatedness === undefined && p.entailment === undefined).length
      if (pairs.length > 0 && unscored === pairs.length) {
        issues.push(
          Issue.error("missing-header", file, `the SICK file of dataset ${spec.name} has no gold columns (relatedness_score, entailment_judgment): it is an input file, not gold`, {
            expected: "pair_ID, sentence_A, sentence_B, relatedness_score, entailment_judgment",
            field: Sick.RELATEDNESS
          })
        )
      }
      checkPairs(spec, file, pairs.length, issues)
      return { kind: "sick", name: spec.name, file, pairs, issues }
    }
    case "stsb-csv": {
      const parsed = StsBenchmark.parse(text)
      issues.push(...parsed.issues)
      const scores = Float64Array.from(parsed.value.rows, (r) => r.score)
      return scoresDataset(spec, file, scores, issues)
    }
    case "sts-gs": {
      const parsed = Sts.parseGold(text)
      issues.push(...parsed.issues)
      return scoresDataset(spec, file, parsed.value.scores, issues)
    }
    case "semrel-csv": {
      const parsed = SemRel.parseData(text)
      issues.push(...parsed.issues)
      const { pairs, hasScores } = parsed.value
      if (!hasScores && !Issue.hasErrors(issues)) {
        issues.push(
          Issue.error("missing-header", file, `the SemRel file of dataset ${spec.name} has no Score column: it is an input file, not gold (the gold is ${spec.name}_test_with_labels.csv)`, {
            expected: "PairID,Text,Score",
            field: SemRel.SCORE
          })
        )
      }
      const scores = Float64Array.from(pairs, (p) => p.score ?? NaN)
      return scoresDataset(spec, file, scores, issues, pairs.map((p) => p.pairId))
    }
  }
}

const scoresDataset = (
  spec: DatasetSpec,
  file: string,
  all: Float64Array,
  issues: Array<Issue.Issue>,
  pairIds?: ReadonlyArray<string>
): GoldDataset => {
  let scores = all
  if (spec.scoredLines !== undefined && all.length > spec.scoredLines) {
    scores = all.slice(0, spec.scoredLines)
    issues.push(
      Issue.info("lines-scored", file, `only lines 1-${spec.scoredLines} of the ${all.length} gold lines of ${spec.name} are scored`, {
        expected: `${spec.scoredLines} scored lines`,
        found: `${all.length} lines`
      })
    )
  }
  let annotated = 0
  for (let i = 0; i < scores.length; i++) if (!Number.isNaN(scores[i])) annotated++
  checkPairs(spec, file, annotated, issues)
  return { kind: "scores", name: spec.name, file, scores, annotated, ...(pairIds !== undefined ? { pairIds } : {}), issues }
}

// The published pair counts catch a wrong or truncated gold file early; a user edition without
// `pairs` skips the check.
const checkPairs = (spec: DatasetSpec, file: string, found: number, issues: Array<Issue.Issue>) => {
  if (spec.pairs !== undefined && found !== spec.pairs && !Issue.hasErrors(issues)) {
    issues.push(
      Issue.warning("length-mismatch", file, `the gold of ${spec.name} has ${found} annotated pairs; the edition expects ${spec.pairs}`, {
        field: spec.name,
        expected: `${spec.pairs} pairs`,
        found: `${found} pairs`
      })
    )
  }
}

// A dataset whose gold was never released is expected to be missing: a warning with the reason.
const missingIssue = (spec: DatasetSpec, file: string, why: string, code: "file-unreadable" | "too-large" = "file-unreadable") =>
  spec.goldNotPublic !== undefined
    ? Issue.warning("not-public", file, `dataset ${spec.name} cannot be scored: ${spec.goldNotPublic}`, {
        field: spec.name,
        expected: spec.gold,
        found: "no gold file"
      })
    : Issue.error(code, file, `the gold file of dataset ${spec.name} ${why}; ${spec.name} cannot be scored`, {
        field: spec.name,
        expected: spec.gold
      })

type Entry =
  | { readonly spec: DatasetSpec; readonly file: string; readonly content: Uint8Array | string }
  | { readonly spec: DatasetSpec; readonly missing: Issue.Issue }

const assemble = (editionId: string, all: ReadonlyArray<DatasetSpec>, entries: ReadonlyArray<Entry>, extra: ReadonlyArray<Issue.Issue> = []): Gold => {
  const datasets: Array<GoldDataset> = []
  const issues: Array<Issue.Issue> = [...extra]
  for (const entry of entries) {
    if ("missing" in entry) {
      issues.push(entry.missing)
      continue
    }
    const dataset = parseDataset(entry.spec, entry.file, entry.content)
    datasets.push(dataset)
    issues.push(...dataset.issues)
  }
  const read = new Set(datasets.map((d) => d.name))
  return { edition: editionId, datasets, missing: all.filter((d) => !read.has(d.name)).map((d) => d.name), issues }
}

/**
 * Build an edition's gold from file contents held in memory (no file system). Datasets of the
 * edition without an entry in `texts` are reported missing.
 *
 * @example
 * ```ts
 * import { Gold, Registry } from "@stseval/formats"
 *
 * // gold from texts at hand (a Codabench reference folder, a test) instead of a folder on disk
 * const gold = Gold.goldFromTexts(Registry.get("sts2017")!, [{ dataset: "track5.en-en", file: "STS.gs.track5.en-en.txt", content: "4.2\n1.0\n" }])
 * ```
 * @since 0.1.0
 */
export const goldFromTexts = (edition: TaskEdition, texts: ReadonlyArray<GoldText>): Gold =>
  assemble(
    edition.id,
    edition.datasets,
    edition.datasets.map((spec): Entry => {
      const text = texts.find((t) => t.dataset === spec.name)
      return text === undefined ? { spec, missing: missingIssue(spec, spec.gold, "was not given") } : { spec, file: text.file, content: text.content }
    })
  )

/**
 * Load an edition's gold from a folder (each dataset's `gold` file inside it) or a file. A file is
 * the gold of a single-dataset edition (SICK, STS-B); for an edition with several datasets it is
 * the gold of the dataset whose `gold` name it has (its base name: `eng_test_with_labels.csv` for
 * `eng/eng_test_with_labels.csv`), and only that dataset is loaded (the others are listed in
 * `missing`, with an info issue). In a folder, a `gold` path with a sub-folder
 * (`eng/eng_test_with_labels.csv`, the SemRel release's layout) is also looked for by its base name
 * directly in the folder (a flat folder of gold files, as a scoring site holds them).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Gold, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // a folder of the edition's gold files, or (SICK, STS-B) the one gold file
 * const gold = await Effect.runPromise(Gold.loadGold(Registry.get("sick2014")!, "SICK_test_annotated.txt").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.1.0
 */
export const loadGold = (
  edition: TaskEdition,
  goldPath: string
): Effect.Effect<Gold, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const pathApi = yield* Path.Path
    const exists = (p: string) => fs.exists(p).pipe(Effect.orElseSucceed(() => false))
    const nothing = (issue: Issue.Issue) => assemble(edition.id, edition.datasets, [], [issue])
    const info = yield* fs.stat(goldPath).pipe(Effect.option)
    if (info._tag === "None") {
      return nothing(
        Issue.error("file-unreadable", goldPath, `the gold of ${edition.id} was not found at ${goldPath}; no dataset can be scored`, {
          expected: edition.datasets.length === 1 ? edition.datasets[0].gold : "a folder with the gold files"
        })
      )
    }
    let wanted: ReadonlyArray<{ spec: DatasetSpec; file: string }>
    const extra: Array<Issue.Issue> = []
    if (info.value.type === "Directory") {
      const located: Array<{ spec: DatasetSpec; file: string }> = []
      for (const spec of edition.datasets) {
        const nested = pathApi.join(goldPath, spec.gold)
        const flat = pathApi.join(goldPath, pathApi.basename(spec.gold))
        const useFlat = nested !== flat && !(yield* exists(nested)) && (yield* exists(flat))
        located.push({ spec, file: useFlat ? flat : nested })
      }
      wanted = located
    } else if (edition.datasets.length === 1) {
      wanted = [{ spec: edition.datasets[0], file: goldPath }]
    } else {
      const base = pathApi.basename(goldPath)
      const spec = edition.datasets.find((d) => d.gold === base) ?? edition.datasets.find((d) => pathApi.basename(d.gold) === base)
      if (spec === undefined) {
        return nothing(
          Issue.error("unknown-file", goldPath, `${base} is not a gold file of ${edition.id}; give the gold folder or one of: ${edition.datasets.map((d) => d.gold).join(", ")}`, {
            expected: "a gold folder",
            found: base
          })
        )
      }
      wanted = [{ spec, file: goldPath }]
      extra.push(Issue.info("missing-dataset", goldPath, `only the gold of ${spec.name} was given; the other datasets of ${edition.id} are not loaded`))
    }
    const entries: Array<Entry> = []
    for (const { spec, file } of wanted) {
      const bytes = yield* Files.readFile(file, { what: "the gold file" }).pipe(Effect.result)
      if (bytes._tag === "Success") entries.push({ spec, file, content: bytes.success })
      else {
        const e = bytes.failure
        const why = e.reason === "missing" ? "is missing" : `cannot be read (${Files.detail(e)})`
        entries.push({ spec, missing: missingIssue(spec, file, why, e.reason === "too-large" ? "too-large" : "file-unreadable") })
      }
    }
    return assemble(edition.id, edition.datasets, entries, extra)
  })
