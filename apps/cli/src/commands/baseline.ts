/**
 * `stseval baseline <name> --task <edition>`: run one of the task papers' baselines on an
 * edition's test input and write the run in the task's own submission format (optionally scoring
 * it at once). The baselines, and finding and reading their inputs, are @stseval/baselines'; this
 * command parses the flags, writes the run and scores it through the engine.
 */
import * as nodePath from "node:path"
import { Console, Effect, FileSystem, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Files, Glue } from "@stseval/formats"
import type { Sick } from "@stseval/formats"
import { Baseline, Embeddings, Inputs, Overlap, Run } from "@stseval/baselines"
import { ResultJson } from "@stseval/scoring"
import { ExitCode, UsageError } from "../internal/Exit.js"
import * as Flags from "../internal/Flags.js"
import * as TextView from "../internal/TextView.js"
import * as Colour from "../internal/Colour.js"
import * as Task from "../internal/Task.js"
import { decimalsOf } from "./validate.js"

const name = Argument.String("name").pipe(
  Argument.withDescription(`Baseline: ${Baseline.catalogue.map((e) => e.name).join(", ")} (see --list)`),
  Argument.optional
)
const task = Flags.task.pipe(Flag.optional)
const input = Flag.String("input").pipe(
  Flag.withDescription(
    "Test input: a SICK data file / an STS Benchmark csv / a SemRel <lang>_test.csv, or a folder holding the STS.input.<dataset>.txt files or a SemRel track's <lang>/ folders; default: the edition's data folder"
  ),
  Flag.optional
)
const out = Flag.String("out").pipe(Flags.defaulting("Folder to write the run into", ".", "the current folder"))
const train = Flags.optionalString("train", "SICK training file for majority / probability (default: SICK_train.txt beside the input)")
const vectors = Flags.optionalString("vectors", "Word vectors (word2vec or GloVe text) for the embeddings baseline")
const seed = Flag.Int("seed").pipe(Flags.defaulting("Seed of the random baselines (chance, probability)", 42))
const team = Flags.optionalString("team", "Team name in the run's file name (default: the baseline's name)")
const scoreIt = Flags.toggle("score", "Score the written run against the edition's gold")
const tune = Flags.toggle("tune", "overlap: tune N (0-300, Pearson) and the thresholds (0.01 steps, accuracy) on train + trial, as the organisers did, instead of the released 3 / 0.03 / 0.56")
const format = Flag.Literals("format", ["stseval", "glue"]).pipe(
  Flag.withDescription("STS Benchmark run format: stseval (one score per line, default) or glue (GLUE's STS-B.tsv, index<TAB>prediction)"),
  Flag.withDefault("stseval" as const)
)
const list = Flags.toggle("list", "List the baselines and exit")

export const baseline = Command.make(
  "baseline",
  { name, task, input, out, train, vectors, seed, team, tune, format, score: scoreIt, list, json: Flags.json, gold: Flags.gold, dataRoot: Flags.dataRoot, verbose: Flags.verbose },
  Effect.fn(function*(o) {
    const c = yield* Colour.Colour
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
    const family = Baseline.familyOf(edition)
    if (family !== entry.family) {
      return yield* new UsageError({ message: `${entry.name} is a ${entry.family.toUpperCase()} baseline; ${edition.id} is a ${family.toUpperCase()} edition` })
    }
    const fs = yield* FileSystem.FileSystem
    // finding and reading the inputs is the baselines package's; a missing input is a usage error
    const where = { input: Option.getOrUndefined(o.input), dataRoot: yield* Task.root(o.dataRoot) }
    const usage = (e: Inputs.InputError) => new UsageError({ message: e.message })
    if (o.format === "glue" && Run.shapeOf(edition) !== "stsb") {
      return yield* new UsageError({ message: `--format glue writes GLUE's STS-B.tsv, for an STS Benchmark edition (stsb); ${edition.id} is not one` })
    }
    let made: Baseline.Made
    const notes: Array<string> = []
    // an annotated SICK input (SICK_test_annotated.txt) is its own gold for --score; so is a
    // SemRel track folder given as --input (its files carry their labels)
    let annotatedInput: string | undefined
    let labelledFolder = false

    if (family === "sick") {
      const input = yield* Inputs.sickInput(edition, where).pipe(Effect.mapError(usage))
      notes.push(`input: ${input.file} (${input.pairs.length} pairs)`)
      if (input.annotated) annotatedInput = input.file
      let trainPairs: ReadonlyArray<Sick.SickPair> | undefined
      const tuning = o.tune && entry.name === "overlap"
      if (entry.needs.includes("train") || tuning) {
        const training = yield* Inputs.sickTraining(input.file, { train: Option.getOrUndefined(o.train), withTrial: tuning, needed: entry.name }).pipe(Effect.mapError(usage))
        trainPairs = training.pairs
        notes.push(...training.notes)
      }
      let overlap: Overlap.Options | undefined
      if (tuning && trainPairs !== undefined) {
        const tuned = Overlap.tune(trainPairs)
        overlap = { stopWords: tuned.stopWords, contradiction: tuned.contradiction, entailment: tuned.entailment }
        notes.push(
          `tuned on ${trainPairs.length} pairs: N = ${tuned.stopWords} (r ${tuned.pearson.toFixed(4)}), thresholds ${tuned.contradiction} / ${tuned.entailment} (accuracy ${(100 * tuned.accuracy).toFixed(2)}%)`
        )
      }
      made = Baseline.sick(entry.name, input.pairs, {
        seed: o.seed,
        ...(trainPairs !== undefined ? { train: trainPairs } : {}),
        ...(overlap !== undefined ? { overlap } : {})
      })
    } else {
      const { datasets, notes: found, shape } = yield* Inputs.stsInputs(edition, where).pipe(Effect.mapError(usage))
      notes.push(...found)
      labelledFolder = shape === "semrel"
      let loaded: Embeddings.Vectors | undefined
      if (entry.needs.includes("vectors")) {
        if (Option.isNone(o.vectors)) return yield* new UsageError({ message: "the embeddings baseline needs --vectors <file> (word2vec or GloVe text format)" })
        const tokenizer = Baseline.stsTokenizer(entry.name)
        const vocabulary = Embeddings.vocabularyOf(datasets.flatMap((d) => d.pairs), tokenizer)
        loaded = yield* Embeddings.load(o.vectors.value, vocabulary).pipe(Effect.mapError((e) => new UsageError({ message: `${e.file}${e.line !== undefined ? `:${e.line}` : ""}: ${e.message}` })))
        notes.push(`vectors: ${o.vectors.value} (${loaded.format}, dim ${loaded.dim}, ${loaded.vectors.size} of ${vocabulary.size} input words found)`)
      }
      made = Baseline.sts(entry.name, datasets, { shape, ...(loaded !== undefined ? { vectors: loaded } : {}) })
      // GLUE's server refuses a prediction outside 0-5 (Glue.writeStsb throws on one): a baseline
      // whose scores are not on that scale (the embeddings' cosines, -1 to 1) is written as stseval's
      const { min, max } = Glue.STSB_RANGE
      const bad = o.format === "glue" && made.run._tag === "stsb" ? Array.from(made.run.scores).findIndex((v) => !(v >= min && v <= max)) : -1
      if (bad >= 0 && made.run._tag === "stsb") {
        const at = datasets[0].lines !== undefined ? ` (${datasets[0].file}:${datasets[0].lines[bad]})` : ""
        return yield* new UsageError({ message: `--format glue: GLUE's STS-B.tsv takes predictions from ${min} to ${max}; ${entry.name} scored pair ${bad + 1}${at} ${made.run.scores[bad]}: write the run with --format stseval` })
      }
    }

    const files = Run.toRun(made.run, { team: Option.getOrElse(o.team, () => entry.name), run: 1, primary: true }, { format: o.format })
    for (const f of files) {
      const target = nodePath.join(o.out, f.path)
      yield* fs.makeDirectory(nodePath.dirname(target), { recursive: true })
      yield* Files.writeAtomic(target, f.contents)
    }
    // a run written as a folder (STS, SemRel, GLUE's STS-B.tsv) is scored as that folder
    const runPath = nodePath.join(o.out, files[0].path.includes("/") ? nodePath.dirname(files[0].path) : files[0].path)
    // with --json, stdout holds only the JSON document: what was written goes to stderr
    const say = o.json ? Console.error : Console.log
    yield* say(`${c.bold(entry.name)} on ${edition.id}: wrote ${runPath}${files.length > 1 ? ` (${files.length} files)` : ""}`)
    for (const n of [...notes, ...made.notes]) yield* say(`  ${n}`)
    if (!o.score) return
    const inputIsFolder = Option.isSome(o.input) && !(yield* fs.stat(o.input.value).pipe(Effect.map((s) => s.type === "File"), Effect.orElseSucceed(() => true)))
    const gold = Option.isSome(o.gold) ? o.gold : annotatedInput !== undefined ? Option.some(annotatedInput) : labelledFolder && inputIsFolder ? o.input : o.gold
    const results = yield* Task.score(edition, { gold, dataRoot: o.dataRoot }, { runs: [runPath], primaryOnly: false, figuresRead: "all" })
    const scored = results.runs[0]
    if (o.json) yield* Console.log(JSON.stringify(ResultJson.resultsToJson(results), null, 2))
    else yield* Console.log(`\n${TextView.scored(scored, edition, decimalsOf(edition.published.style, Option.none()), c, { verbose: o.verbose })}`)
    if (scored.errors.length > 0) return yield* new ExitCode({ code: 1, reason: "the baseline run has an error" })
  })
).pipe(
  Command.withDescription(
    "Run a task paper's baseline (SICK word overlap, entailment chance / majority / probability, STS token cosine, averaged word embeddings, SemRel lexical overlap) and write the run in the task's submission format (--format glue: GLUE's STS-B.tsv); --score scores it against the gold (--json: the scored-results document)."
  )
)
