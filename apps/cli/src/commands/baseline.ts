/**
 * `stseval baseline <name> --task <edition>`: run one of the task papers' baselines on an
 * edition's test input and write the run in the task's own submission format (optionally scoring
 * it at once). The baselines themselves are pure functions in @stseval/baselines; this command
 * only finds and reads the files, and writes the run.
 */
import * as nodePath from "node:path"
import { Console, Effect, FileSystem, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Issue, Sick, Sts, StsBenchmark, Text } from "@stseval/formats"
import type { Registry } from "@stseval/formats"
import { Baseline, Embeddings, Overlap, Run } from "@stseval/baselines"
import { Engine } from "@stseval/scoring"
import { ExitCode, UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as Render from "../internal/Render.js"
import * as Style from "../internal/Style.js"
import * as Task from "../internal/Task.js"
import { decimalsOf } from "./validate.js"

const name = Argument.String("name").pipe(
  Argument.withDescription(`Baseline: ${Baseline.catalogue.map((e) => e.name).join(", ")} (see --list)`),
  Argument.optional
)
const task = Flags.task.pipe(Flag.optional)
const input = Flag.String("input").pipe(
  Flag.withDescription(
    "Test input: a SICK data file / an STS Benchmark csv, or a folder holding the STS.input.<dataset>.txt files; default: the edition's data folder"
  ),
  Flag.optional
)
const out = Flag.String("out").pipe(Flag.withDescription("Folder to write the run into (default: the current folder)"), Flag.withDefault("."))
const train = Flag.String("train").pipe(
  Flag.withDescription("SICK training file for majority / probability (default: SICK_train.txt beside the input)"),
  Flag.optional
)
const vectors = Flag.String("vectors").pipe(Flag.withDescription("Word vectors (word2vec or GloVe text) for the embeddings baseline"), Flag.optional)
const seed = Flag.Int("seed").pipe(Flag.withDescription("Seed of the random baselines (chance, probability)"), Flag.withDefault(42))
const team = Flag.String("team").pipe(Flag.withDescription("Team name in the run's file name (default: the baseline's name)"), Flag.optional)
const scoreIt = Flag.Boolean("score").pipe(Flag.withDescription("Score the written run against the edition's gold"), Flag.withDefault(false))
const tune = Flag.Boolean("tune").pipe(
  Flag.withDescription("overlap: tune N (0-300, Pearson) and the thresholds (0.01 steps, accuracy) on train + trial, as the organisers did, instead of the released 3 / 0.03 / 0.56"),
  Flag.withDefault(false)
)
const list = Flag.Boolean("list").pipe(Flag.withDescription("List the baselines and exit"), Flag.withDefault(false))

const exists = (p: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    return yield* fs.exists(p).pipe(Effect.orElseSucceed(() => false))
  })

/** Read and decode a text file; a fatal decoding issue (or an unreadable file) is a usage error. */
const readText = Effect.fnUntraced(function*(file: string) {
  const fs = yield* FileSystem.FileSystem
  const bytes = yield* fs.readFile(file).pipe(Effect.mapError((e) => new UsageError({ message: `${file}: cannot read: ${e.message}` })))
  const decoded = Text.decode(bytes, file)
  if (Issue.hasErrors(decoded.issues)) return yield* new UsageError({ message: decoded.issues.filter((i) => i.severity === "error").map(Issue.format).join("; ") })
  return decoded.value
})

const parsedOrFail = <A>(parsed: Issue.Parsed<A>) =>
  Issue.hasErrors(parsed.issues)
    ? Effect.fail(new UsageError({ message: parsed.issues.filter((i) => i.severity === "error").slice(0, 3).map(Issue.format).join("; ") }))
    : Effect.succeed(parsed.value)

/** The first of `candidates` that exists. */
const firstExisting = Effect.fnUntraced(function*(candidates: ReadonlyArray<string>) {
  for (const c of candidates) if (yield* exists(c)) return Option.some(c)
  return Option.none<string>()
})

/** Folders to look for input files in: --input, else the data folder and its `input` sibling (STS 2017 layout). */
const inputDirs = (edition: Registry.TaskEdition, flag: Option.Option<string>, dataRoot: Option.Option<string>): ReadonlyArray<string> => {
  if (Option.isSome(flag)) return [flag.value]
  if (edition.data === undefined) return []
  const dir = nodePath.join(Task.root(dataRoot), edition.data.dir)
  return [dir, nodePath.join(nodePath.dirname(dir), "input")]
}

const languagesOf = (spec: Registry.DatasetSpec): readonly [string, string] | undefined => {
  const m = spec.language === undefined ? null : /^([a-z]{2,3})-([a-z]{2,3})$/.exec(spec.language)
  return m === null ? undefined : [m[1], m[2]]
}

export const baseline = Command.make(
  "baseline",
  { name, task, input, out, train, vectors, seed, team, tune, score: scoreIt, list, gold: Flags.gold, dataRoot: Flags.dataRoot, verbose: Flags.verbose },
  Effect.fn(function*(o) {
    if (o.list || Option.isNone(o.name)) {
      const width = Math.max(...Baseline.catalogue.map((e) => e.name.length))
      for (const e of Baseline.catalogue) {
        yield* Console.log(`${e.name.padEnd(width)}  ${e.family.padEnd(4)}  ${e.description}${e.needs.length > 0 ? ` [needs --${e.needs.join(", --")}]` : ""}`)
      }
      if (!o.list) return yield* new UsageError({ message: "name a baseline (listed above)" })
      return
    }
    const entry = Baseline.get(o.name.value)
    if (entry === undefined) {
      return yield* new UsageError({ message: `unknown baseline "${o.name.value}"; one of ${Baseline.catalogue.map((e) => e.name).join(", ")}` })
    }
    if (Option.isNone(o.task)) return yield* new UsageError({ message: "--task: name the task edition the run is for (see `stseval tasks`)" })
    const edition = yield* Task.edition(o.task.value)
    if (edition.family !== entry.family) {
      return yield* new UsageError({ message: `${entry.name} is a ${entry.family.toUpperCase()} baseline; ${edition.id} is a ${edition.family.toUpperCase()} edition` })
    }
    const fs = yield* FileSystem.FileSystem
    const dirs = inputDirs(edition, o.input, o.dataRoot)
    const givenFile = Option.isSome(o.input)
      ? yield* fs.stat(o.input.value).pipe(
          Effect.map((s) => s.type === "File"),
          Effect.orElseSucceed(() => false)
        )
      : false
    let made: Baseline.Made
    const notes: Array<string> = []
    // an annotated SICK input (SICK_test_annotated.txt) is its own gold for --score
    let annotatedInput: string | undefined

    if (edition.family === "sick") {
      const spec = edition.datasets[0]
      const candidates = givenFile ? [Option.getOrThrow(o.input)] : dirs.flatMap((d) => [spec.input, spec.gold].filter((f) => f !== undefined).map((f) => nodePath.join(d, f)))
      const file = yield* firstExisting(candidates)
      if (Option.isNone(file)) {
        return yield* new UsageError({ message: `${edition.id}: no test input found (looked for ${candidates.join(", ") || "nothing"}); give it with --input <file>` })
      }
      const pairs = (yield* parsedOrFail(Sick.parseData(yield* readText(file.value)))).pairs
      notes.push(`input: ${file.value} (${pairs.length} pairs)`)
      if (pairs.length > 0 && pairs.every((p) => p.relatedness !== undefined && p.entailment !== undefined)) annotatedInput = file.value
      let trainPairs: ReadonlyArray<Sick.SickPair> | undefined
      const tuning = o.tune && entry.name === "overlap"
      if (entry.needs.includes("train") || tuning) {
        const beside = (f: string) => nodePath.join(nodePath.dirname(file.value), f)
        const trainFile = Option.isSome(o.train) ? Option.some(o.train.value) : yield* firstExisting([beside("SICK_train.txt")])
        if (Option.isNone(trainFile)) return yield* new UsageError({ message: `${entry.name} needs the training data: give --train <SICK_train.txt>` })
        trainPairs = (yield* parsedOrFail(Sick.parseData(yield* readText(trainFile.value)))).pairs
        notes.push(`train: ${trainFile.value} (${trainPairs.length} pairs)`)
        // the organisers tuned on train + trial; the trial file is used when it sits beside the input
        const trial = tuning && Option.isNone(o.train) ? yield* firstExisting([beside("SICK_trial.txt")]) : Option.none<string>()
        if (Option.isSome(trial)) {
          const trialPairs = (yield* parsedOrFail(Sick.parseData(yield* readText(trial.value)))).pairs
          trainPairs = [...trainPairs, ...trialPairs]
          notes.push(`trial: ${trial.value} (${trialPairs.length} pairs)`)
        }
      }
      let overlap: Overlap.Options | undefined
      if (tuning && trainPairs !== undefined) {
        const tuned = Overlap.tune(trainPairs)
        overlap = { stopWords: tuned.stopWords, contradiction: tuned.contradiction, entailment: tuned.entailment }
        notes.push(
          `tuned on ${trainPairs.length} pairs: N = ${tuned.stopWords} (r ${tuned.pearson.toFixed(4)}), thresholds ${tuned.contradiction} / ${tuned.entailment} (accuracy ${(100 * tuned.accuracy).toFixed(2)}%)`
        )
      }
      made = Baseline.sick(entry.name, pairs, {
        seed: o.seed,
        ...(trainPairs !== undefined ? { train: trainPairs } : {}),
        ...(overlap !== undefined ? { overlap } : {})
      })
    } else {
      const datasets: Array<Baseline.StsDataset> = []
      const stsb = edition.datasets.every((d) => d.goldFormat === "stsb-csv")
      for (const spec of edition.datasets) {
        const fileName = spec.input
        if (fileName === undefined) {
          notes.push(`${spec.name}: no public input, skipped`)
          continue
        }
        const file = givenFile ? Option.some(Option.getOrThrow(o.input)) : yield* firstExisting(dirs.map((d) => nodePath.join(d, fileName)))
        if (Option.isNone(file)) {
          notes.push(`${spec.name}: ${fileName} not found in ${dirs.join(" or ")}, skipped`)
          continue
        }
        const text = yield* readText(file.value)
        const pairs = stsb ? (yield* parsedOrFail(StsBenchmark.parse(text))).rows : (yield* parsedOrFail(Sts.parseInput(text))).pairs
        datasets.push({ dataset: spec.name, pairs, languages: languagesOf(spec) })
      }
      if (datasets.length === 0) {
        return yield* new UsageError({ message: `${edition.id}: no input file found (${notes.join("; ")}); give the input folder with --input <dir>` })
      }
      let loaded: Embeddings.Vectors | undefined
      if (entry.needs.includes("vectors")) {
        if (Option.isNone(o.vectors)) return yield* new UsageError({ message: "the embeddings baseline needs --vectors <file> (word2vec or GloVe text format)" })
        const tokenizer = Baseline.stsTokenizer(entry.name)
        const vocabulary = Embeddings.vocabularyOf(datasets.flatMap((d) => d.pairs), tokenizer)
        loaded = yield* Embeddings.load(o.vectors.value, vocabulary).pipe(Effect.mapError((e) => new UsageError({ message: `${e.file}${e.line !== undefined ? `:${e.line}` : ""}: ${e.message}` })))
        notes.push(`vectors: ${o.vectors.value} (${loaded.format}, dim ${loaded.dim}, ${loaded.vectors.size} of ${vocabulary.size} input words found)`)
      }
      made = Baseline.sts(entry.name, datasets, { stsb, ...(loaded !== undefined ? { vectors: loaded } : {}) })
    }

    const files = Run.toRun(made.run, { team: Option.getOrElse(o.team, () => entry.name), run: 1, primary: true })
    for (const f of files) {
      const target = nodePath.join(o.out, f.path)
      yield* fs.makeDirectory(nodePath.dirname(target), { recursive: true })
      yield* fs.writeFileString(target, f.contents)
    }
    const runPath = nodePath.join(o.out, edition.submission === "folder" ? nodePath.dirname(files[0].path) : files[0].path)
    yield* Console.log(`${Style.bold(entry.name)} on ${edition.id}: wrote ${runPath}${files.length > 1 ? ` (${files.length} files)` : ""}`)
    for (const n of [...notes, ...made.notes]) yield* Console.log(`  ${n}`)
    if (!o.score) return
    const goldPath = Option.isNone(o.gold) && annotatedInput !== undefined ? annotatedInput : yield* Task.goldPath(edition, o.gold, o.dataRoot)
    const context = yield* Engine.loadContext({ task: edition, gold: goldPath })
    const scored = yield* Engine.scoreRunPath(context, runPath)
    yield* Console.log(`\n${Render.scored(scored, decimalsOf(edition.published.style, Option.none()), { verbose: o.verbose })}`)
    if (scored.errors.length > 0) return yield* new ExitCode({ code: 1, reason: "the baseline run has an error" })
  })
).pipe(
  Command.withDescription(
    "Run a task paper's baseline (SICK word overlap, entailment chance / majority / probability, STS token cosine, averaged word embeddings) and write the run in the task's submission format; --score scores it against the gold."
  )
)
