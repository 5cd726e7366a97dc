/**
 * The catalogue of named baselines and one entry point per task family: input pairs to a run plus
 * the notes a reader of its figures must see. Pure: the caller reads and writes the files. Its
 * RangeErrors are programmer's errors: `Inputs` and the CLI refuse such input first.
 *
 * @since 0.1.0
 */
import type { Registry, Sick } from "@stseval/formats"
import * as Embeddings from "./Embeddings.js"
import * as Entailment from "./Entailment.js"
import * as LexicalOverlap from "./LexicalOverlap.js"
import * as Overlap from "./Overlap.js"
import { shapeOf } from "./Run.js"
import type { BaselineRun, Shape } from "./Run.js"
import * as TokenCosine from "./TokenCosine.js"
import * as Tokenizer from "./Tokenizer.js"

/**
 * The name of a baseline, as `stseval baseline` takes it.
 *
 * @since 0.1.0
 */
export type Name = "overlap" | "chance" | "majority" | "probability" | "tokencos" | "tokencos-2014" | "embeddings" | "lexical-overlap"

/**
 * A baseline of the catalogue: its name, the task family it makes runs for and what it needs beyond the test input.
 *
 * @since 0.1.0
 */
export interface Entry {
  readonly name: Name
  /** which task family it makes runs for */
  readonly family: "sick" | "sts"
  /** what it needs beyond the test input */
  readonly needs: ReadonlyArray<"train" | "vectors">
  readonly description: string
}

/**
 * Every baseline, in the order `--list` shows them.
 *
 * @example
 * ```ts
 * import { Baseline } from "@stseval/baselines"
 *
 * const forSts = Baseline.catalogue.filter((e) => e.family === "sts").map((e) => e.name)
 * ```
 * @since 0.1.0
 */
export const catalogue: ReadonlyArray<Entry> = [
  { name: "overlap", family: "sick", needs: [], description: "SICK word overlap (organisers' baseline): N = 3 most frequent tokens of the input as stop words, overlap as relatedness, labels by thresholds 0.03 / 0.56" },
  { name: "chance", family: "sick", needs: [], description: "SICK entailment: a label drawn uniformly (seeded); relatedness NA" },
  { name: "majority", family: "sick", needs: ["train"], description: "SICK entailment: the most common training label (NEUTRAL); relatedness NA" },
  { name: "probability", family: "sick", needs: ["train"], description: "SICK entailment: labels drawn from the training distribution (seeded); relatedness NA" },
  { name: "tokencos", family: "sts", needs: [], description: "STS 2017 baseline-tokencos: cosine of binary bags of lower-cased treebank tokens (no machine translation for cross-lingual tracks)" },
  { name: "tokencos-2014", family: "sts", needs: [], description: "STS 2014 baseline-tokencos: cosine of binary bags of white-space tokens" },
  { name: "embeddings", family: "sts", needs: ["vectors"], description: "cosine of averaged word vectors (word2vec / GloVe text file), lower-cased treebank tokens" },
  { name: "lexical-overlap", family: "sts", needs: [], description: "SemEval-2024 Task 1 (SemRel) organisers' baseline: Dice coefficient of the two sentences' sets of white-space tokens (case kept, punctuation attached)" }
]

/**
 * @example
 * ```ts
 * import { Baseline } from "@stseval/baselines"
 *
 * Baseline.get("overlap")?.family // "sick"
 * Baseline.get("bert") // undefined
 * ```
 * @since 0.1.0
 */
export const get = (name: string): Entry | undefined => catalogue.find((e) => e.name === name)

/**
 * The family of runs an edition takes: `sick` when its runs are SICK run files (both subtasks in
 * one file), else `sts` (one graded score per pair, written by each dataset's format).
 *
 * @example
 * ```ts
 * import { Baseline } from "@stseval/baselines"
 * import { Registry } from "@stseval/formats"
 *
 * Baseline.familyOf(Registry.get("sick2014")!) // "sick"
 * Baseline.familyOf(Registry.get("semrel2024-a")!) // "sts": one graded score per pair
 * ```
 * @since 0.3.0
 */
export const familyOf = (edition: Registry.TaskEdition): Entry["family"] => (shapeOf(edition) === "sick" ? "sick" : "sts")

/**
 * A baseline's run, and the notes a reader of its figures must see (its settings, what to expect).
 *
 * @since 0.1.0
 */
export interface Made {
  readonly run: BaselineRun
  readonly notes: ReadonlyArray<string>
}

/**
 * What the SICK baselines read beyond the test input: the training labels, and a seed.
 *
 * @since 0.1.0
 */
export interface SickOptions {
  /** training pairs (with gold labels), for majority / probability */
  readonly train?: ReadonlyArray<{ readonly entailment?: Sick.EntailmentLabel | undefined }>
  readonly seed?: number
  readonly overlap?: Overlap.Options
}

/**
 * A SICK run for the test input `pairs` (gold columns, if any, are not read).
 *
 * @example
 * ```ts
 * import { Baseline } from "@stseval/baselines"
 *
 * const made = Baseline.sick("overlap", [{ pairId: "1", sentenceA: "A man sings", sentenceB: "A man sings" }])
 * made.run._tag // "sick"
 * ```
 * @since 0.1.0
 */
export const sick = (name: Name, pairs: ReadonlyArray<Overlap.Pair>, options: SickOptions = {}): Made => {
  switch (name) {
    case "overlap": {
      const o = options.overlap ?? Overlap.DEFAULTS
      return {
        run: { _tag: "sick", rows: Overlap.run(pairs, o) },
        notes: [
          `stop words: the ${o.stopWords} most frequent tokens of the input (${[...Overlap.stopWords(pairs, o.stopWords, o.unicode ?? false)].join(" ")}); thresholds ${o.contradiction} / ${o.entailment}; relatedness is the overlap (0-1), not rescaled to 1-5`
        ]
      }
    }
    case "chance":
    case "majority":
    case "probability": {
      const train = Entailment.distribution((options.train ?? []).map((p) => p.entailment))
      const trainSize = train.ENTAILMENT + train.CONTRADICTION + train.NEUTRAL
      if (name !== "chance" && trainSize === 0) throw new RangeError(`the ${name} baseline needs training pairs with entailment labels`)
      const seed = options.seed ?? 42
      const labels = Entailment.predict(name, pairs.length, train, seed)
      // when the input carries gold labels (an annotated test file), say what to expect
      const test = Entailment.distribution(pairs.map((p) => p.entailment))
      const expected =
        test.ENTAILMENT + test.CONTRADICTION + test.NEUTRAL > 0 && (name === "chance" || trainSize > 0)
          ? [`expected accuracy on this input's gold: ${(100 * Entailment.expectedAccuracy(name, train, test)).toFixed(2)}%`]
          : []
      const notes =
        name === "majority"
          ? [`majority label ${Entailment.majorityLabel(train)} (of ${trainSize} training pairs)`]
          : name === "chance"
            ? [`seed ${seed}; expected accuracy 1/3`]
            : [
                `seed ${seed}; training distribution ENTAILMENT ${train.ENTAILMENT}, CONTRADICTION ${train.CONTRADICTION}, NEUTRAL ${train.NEUTRAL}; expected accuracy = sum of p_train(l) p_test(l)`
              ]
      return {
        run: { _tag: "sick", rows: pairs.map((p, i) => ({ pairId: p.pairId, entailment: labels[i] })) },
        notes: [...notes, ...expected, "relatedness not predicted (NA)"]
      }
    }
    default:
      throw new RangeError(`${name} is not a SICK baseline`)
  }
}

/**
 * One STS dataset's input.
 *
 * @since 0.1.0
 */
export interface StsDataset {
  readonly dataset: string
  readonly pairs: ReadonlyArray<TokenCosine.SentencePair>
  /** the two languages, when cross-lingual (e.g. ["es", "en"]) */
  readonly languages?: readonly [string, string] | undefined
  /** each pair's ID, in `pairs` order: needed for a SemRel run (`pred_<lang>.csv` is matched by PairID) */
  readonly pairIds?: ReadonlyArray<string> | undefined
  /** the input file the pairs were read from, for messages @since 0.5.0 */
  readonly file?: string | undefined
  /** each pair's line in `file`, in `pairs` order @since 0.5.0 */
  readonly lines?: ReadonlyArray<number> | undefined
}

/**
 * The tokeniser a baseline uses for STS (also the one to build an embeddings vocabulary with).
 *
 * @example
 * ```ts
 * import { Baseline } from "@stseval/baselines"
 *
 * const tokenize = Baseline.stsTokenizer("tokencos-2014") // white space, as STS 2014's baseline
 * tokenize("A man sings.") // ["A", "man", "sings."]
 * ```
 * @since 0.1.0
 */
export const stsTokenizer = (name: Name): Tokenizer.Tokenizer =>
  name === "tokencos-2014" ? Tokenizer.whitespace : Tokenizer.lowercased(Tokenizer.treebank)

/**
 * An STS run for `datasets`. `embeddings` needs `vectors` (`Embeddings.load` for
 * `Embeddings.vocabularyOf(pairs, stsTokenizer(name))`). `shape` is the edition's run
 * (`Run.shapeOf`): `sts` (default), `stsb` or `semrel` (every dataset needs its `pairIds`).
 *
 * @example
 * ```ts
 * import { Baseline } from "@stseval/baselines"
 *
 * const made = Baseline.sts("tokencos", [
 *   { dataset: "news", pairs: [{ sentence1: "A man is playing a guitar.", sentence2: "A man is playing a guitar." }] }
 * ])
 * ```
 * @since 0.1.0
 */
export const sts = (
  name: Name,
  datasets: ReadonlyArray<StsDataset>,
  options: { readonly vectors?: Embeddings.Vectors; readonly shape?: Shape } = {}
): Made => {
  if (options.shape === "sick") throw new RangeError(`${name} writes STS runs; a SICK edition's run is Baseline.sick's`)
  const tokenizer = stsTokenizer(name)
  const notes: Array<string> = []
  const scored = datasets.map((d) => {
    let result: TokenCosine.Scored
    if (name === "tokencos" || name === "tokencos-2014") result = TokenCosine.score(d.pairs, { tokenizer, ...(d.languages ? { languages: d.languages } : {}) })
    else if (name === "embeddings") {
      if (options.vectors === undefined) throw new RangeError("the embeddings baseline needs a vectors file")
      result = Embeddings.score(d.pairs, options.vectors, tokenizer)
    } else if (name === "lexical-overlap") result = LexicalOverlap.score(d.pairs)
    else throw new RangeError(`${name} is not an STS baseline`)
    for (const n of result.notes) notes.push(`${d.dataset}: ${n}`)
    return { dataset: d.dataset, scores: result.scores, pairIds: d.pairIds }
  })
  if (options.shape === "stsb") {
    if (scored.length !== 1) throw new RangeError(`an STS Benchmark run has one dataset, got ${scored.length}`)
    return { run: { _tag: "stsb", scores: scored[0].scores }, notes }
  }
  if (options.shape === "semrel") {
    return {
      run: {
        _tag: "semrel",
        datasets: scored.map((d) => {
          if (d.pairIds === undefined || d.pairIds.length !== d.scores.length) {
            throw new RangeError(`a SemRel run needs the pair ID of every pair of ${d.dataset}`)
          }
          return { language: d.dataset, pairIds: d.pairIds, scores: d.scores }
        })
      },
      notes
    }
  }
  return { run: { _tag: "sts", datasets: scored.map(({ dataset, scores }) => ({ dataset, scores })) }, notes }
}
