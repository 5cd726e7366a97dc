/**
 * The SICK word-overlap baseline of SemEval-2014 Task 1, as the organisers ran it: lower-cased
 * `\w+|[^\w\s]+` tokens, the N most frequent tokens of the input file as stop words, overlap =
 * distinct shared tokens / distinct tokens of the larger sentence, and two thresholds for the
 * entailment label. Reproduces the released run on the test set line for line (see
 * docs/baselines.md), and tunes N and the thresholds on train + trial as the organisers did.
 *
 * @since 0.1.0
 */
import { Pearson } from "@stseval/metrics"
import type { Sick } from "@stseval/formats"
import { wordOrPunct } from "./Tokenizer.js"

/**
 * The sentences of a pair; gold fields are read only by `tune`.
 *
 * @since 0.1.0
 */
export interface Pair {
  readonly pairId: string
  readonly sentenceA: string
  readonly sentenceB: string
  readonly relatedness?: number | undefined
  readonly entailment?: Sick.EntailmentLabel | undefined
}

/**
 * The settings of the SICK overlap baseline: stop words, and the thresholds that turn an overlap into a label.
 *
 * @since 0.1.0
 */
export interface Options {
  /** number of most frequent tokens of the input file removed as stop words (organisers: 3) */
  readonly stopWords: number
  /** CONTRADICTION when overlap <= this (organisers: 0.03) */
  readonly contradiction: number
  /** ENTAILMENT when overlap >= this (organisers: 0.56); NEUTRAL in between */
  readonly entailment: number
  /** Unicode-aware `\w` (default false: ASCII, as the organisers' Python 2 script) */
  readonly unicode?: boolean
}

/**
 * The released baseline's settings.
 *
 * @example
 * ```ts
 * import { Overlap } from "@stseval/baselines"
 *
 * Overlap.DEFAULTS // { stopWords: 3, contradiction: 0.03, entailment: 0.56 }: the organisers' script
 * ```
 * @since 0.1.0
 */
export const DEFAULTS: Options = { stopWords: 3, contradiction: 0.03, entailment: 0.56 }

/**
 * One SICK pair as the overlap baseline scores it: the relatedness and the entailment label.
 *
 * @since 0.1.0
 */
export interface Row {
  readonly pairId: string
  readonly entailment: Sick.EntailmentLabel
  /** the overlap itself, 0-1 (the released run writes it as the relatedness score, unscaled) */
  readonly relatedness: number
}

/**
 * Lower-cased tokens of one sentence.
 *
 * @example
 * ```ts
 * import { Overlap } from "@stseval/baselines"
 *
 * // lower-cased runs of word characters, or of characters that are neither word nor space
 * Overlap.tokens("A man isn't singing.") // ["a", "man", "isn", "'", "t", "singing", "."]
 * ```
 * @since 0.1.0
 */
export const tokens = (sentence: string, unicode = false): ReadonlyArray<string> =>
  wordOrPunct(sentence.toLowerCase(), { unicode })

/**
 * Tokens of the input file by frequency, ties by first occurrence (Python 2's `most_common` leaves
 * them arbitrary; SICK's top 3 have none, so the released run does not depend on it).
 *
 * @example
 * ```ts
 * import { Overlap } from "@stseval/baselines"
 *
 * const pairs: ReadonlyArray<Overlap.Pair> = [
 *   { pairId: "1", sentenceA: "A man is playing a guitar", sentenceB: "A man is playing a guitar" },
 *   { pairId: "2", sentenceA: "A woman is slicing onions", sentenceB: "Nobody is cooking" }
 * ]
 * const mostFrequentFirst = Overlap.rankTokens(pairs) // ["a", "is", ...]
 * ```
 * @since 0.1.0
 */
export const rankTokens = (pairs: ReadonlyArray<Pair>, unicode = false): ReadonlyArray<string> => {
  const count = new Map<string, number>()
  for (const p of pairs) {
    for (const s of [p.sentenceA, p.sentenceB]) for (const t of tokens(s, unicode)) count.set(t, (count.get(t) ?? 0) + 1)
  }
  // Map iteration order is insertion order = first occurrence; the sort is stable.
  return [...count.keys()].sort((a, b) => count.get(b)! - count.get(a)!)
}

/**
 * The N most frequent tokens of the input file.
 *
 * @example
 * ```ts
 * import { Overlap } from "@stseval/baselines"
 *
 * const pairs: ReadonlyArray<Overlap.Pair> = [
 *   { pairId: "1", sentenceA: "A man is playing a guitar", sentenceB: "A man is playing a guitar" },
 *   { pairId: "2", sentenceA: "A woman is slicing onions", sentenceB: "Nobody is cooking" }
 * ]
 * const stop = Overlap.stopWords(pairs, 3) // the 3 most frequent tokens of the input
 * ```
 * @since 0.1.0
 */
export const stopWords = (pairs: ReadonlyArray<Pair>, n: number, unicode = false): ReadonlySet<string> =>
  new Set(rankTokens(pairs, unicode).slice(0, n))

/**
 * |distinct shared tokens| / |distinct tokens of the larger set|, after removing stop words;
 * 1 when both sets are empty.
 *
 * @example
 * ```ts
 * import { Overlap } from "@stseval/baselines"
 *
 * // distinct shared tokens over the larger set, stop words removed: {man} of {man, sings} and {man, singing}
 * Overlap.overlap(["a", "man", "sings"], ["a", "man", "is", "singing"], new Set(["a", "is"])) // 0.5
 * ```
 * @since 0.1.0
 */
export const overlap = (a: ReadonlyArray<string>, b: ReadonlyArray<string>, stop: ReadonlySet<string>): number => {
  const setA = new Set(a.filter((t) => !stop.has(t)))
  const setB = new Set(b.filter((t) => !stop.has(t)))
  const larger = Math.max(setA.size, setB.size)
  if (larger === 0) return 1
  let shared = 0
  for (const t of setA) if (setB.has(t)) shared++
  return shared / larger
}

/**
 * CONTRADICTION if overlap <= `contradiction`, ENTAILMENT if >= `entailment`, else NEUTRAL.
 *
 * @example
 * ```ts
 * import { Overlap } from "@stseval/baselines"
 *
 * Overlap.label(0.02) // "CONTRADICTION" (<= 0.03)
 * Overlap.label(0.3) // "NEUTRAL"
 * Overlap.label(0.6) // "ENTAILMENT" (>= 0.56)
 * ```
 * @since 0.1.0
 */
export const label = (value: number, thresholds: Pick<Options, "contradiction" | "entailment"> = DEFAULTS): Sick.EntailmentLabel =>
  value <= thresholds.contradiction ? "CONTRADICTION" : value >= thresholds.entailment ? "ENTAILMENT" : "NEUTRAL"

/**
 * Overlap of every pair, stop words taken from the same pairs (the "input file").
 *
 * @example
 * ```ts
 * import { Overlap } from "@stseval/baselines"
 *
 * const pairs: ReadonlyArray<Overlap.Pair> = [
 *   { pairId: "1", sentenceA: "A man is playing a guitar", sentenceB: "A man is playing a guitar" },
 *   { pairId: "2", sentenceA: "A woman is slicing onions", sentenceB: "Nobody is cooking" }
 * ]
 * const scores: Float64Array = Overlap.overlaps(pairs, 3) // one overlap per pair, 3 stop words
 * ```
 * @since 0.1.0
 */
export const overlaps = (pairs: ReadonlyArray<Pair>, n: number, unicode = false): Float64Array => {
  const stop = stopWords(pairs, n, unicode)
  return Float64Array.from(pairs, (p) => overlap(tokens(p.sentenceA, unicode), tokens(p.sentenceB, unicode), stop))
}

/**
 * Run the baseline on an input file's pairs (test input or annotated test: only the sentences
 * are read). Stop words come from these same pairs, as in the organisers' script.
 *
 * @example
 * ```ts
 * import { Overlap } from "@stseval/baselines"
 *
 * const pairs: ReadonlyArray<Overlap.Pair> = [
 *   { pairId: "1", sentenceA: "A man is playing a guitar", sentenceB: "A man is playing a guitar" },
 *   { pairId: "2", sentenceA: "A woman is slicing onions", sentenceB: "Nobody is cooking" }
 * ]
 * const rows = Overlap.run(pairs) // [{ pairId: "1", entailment: "ENTAILMENT", relatedness: 1 }, ...]
 * ```
 * @since 0.1.0
 */
export const run = (pairs: ReadonlyArray<Pair>, options: Options = DEFAULTS): ReadonlyArray<Row> => {
  const values = overlaps(pairs, options.stopWords, options.unicode ?? false)
  return pairs.map((p, i) => ({ pairId: p.pairId, entailment: label(values[i], options), relatedness: values[i] }))
}

/**
 * The settings `tune` found on the training pairs, and how well they did there.
 *
 * @since 0.1.0
 */
export interface Tuned {
  readonly stopWords: number
  /** Pearson of overlap against gold relatedness at `stopWords` */
  readonly pearson: number
  readonly contradiction: number
  readonly entailment: number
  /** accuracy (0-1) of the labels at the chosen thresholds */
  readonly accuracy: number
}

/**
 * How far `tune` searches: the most stop words and the threshold's step.
 *
 * @since 0.1.0
 */
export interface TuneOptions {
  /** largest N tried (organisers: 300) */
  readonly maxStopWords?: number
  /** threshold grid step (organisers: 0.01) */
  readonly step?: number
  readonly unicode?: boolean
}

/**
 * Grid search on gold-annotated pairs (organisers: train + trial): the N maximising Pearson of
 * overlap against relatedness, then at that N the thresholds (multiples of `step`) maximising
 * accuracy; ties keep the smallest. Pairs without gold still count for stop-word frequencies.
 *
 * @example
 * ```ts
 * import { Overlap } from "@stseval/baselines"
 *
 * declare const trainAndTrial: ReadonlyArray<Overlap.Pair> // with gold relatedness and entailment
 * // N over 0-300 for Pearson, then both thresholds in 0.01 steps for accuracy, as the organisers did
 * const tuned = Overlap.tune(trainAndTrial, { maxStopWords: 300, step: 0.01 })
 * ```
 * @since 0.1.0
 */
export const tune = (pairs: ReadonlyArray<Pair>, options?: TuneOptions): Tuned => {
  const unicode = options?.unicode ?? false
  const maxN = options?.maxStopWords ?? 300
  const step = options?.step ?? 0.01
  const ranked = rankTokens(pairs, unicode)
  const tokenised = pairs.map((p) => [tokens(p.sentenceA, unicode), tokens(p.sentenceB, unicode)] as const)
  const withRel = pairs.flatMap((p, i) => (p.relatedness !== undefined && Number.isFinite(p.relatedness) ? [i] : []))
  const gold = Float64Array.from(withRel, (i) => pairs[i].relatedness!)
  let best = { n: 0, r: -Infinity }
  const values = new Float64Array(withRel.length)
  for (let n = 0; n <= maxN; n++) {
    const stop = new Set(ranked.slice(0, n))
    for (let k = 0; k < withRel.length; k++) values[k] = overlap(tokenised[withRel[k]][0], tokenised[withRel[k]][1], stop)
    const r = Pearson.pearsonRaw(gold, values)
    if (r > best.r) best = { n, r }
    if (n >= ranked.length) break
  }
  const stop = new Set(ranked.slice(0, best.n))
  const labelled = pairs.flatMap((p, i) => (p.entailment !== undefined ? [i] : []))
  const ov = Float64Array.from(labelled, (i) => overlap(tokenised[i][0], tokenised[i][1], stop))
  const gl = labelled.map((i) => pairs[i].entailment!)
  const steps = Math.round(1 / step)
  let bestT = { c: 0, e: 0, correct: -1 }
  for (let ci = 0; ci <= steps; ci++) {
    // i / steps rather than i * step: 0.56 is then exactly the double nearest 0.56.
    const c = ci / steps
    for (let ei = ci; ei <= steps; ei++) {
      const e = ei / steps
      let correct = 0
      for (let k = 0; k < ov.length; k++) if (label(ov[k], { contradiction: c, entailment: e }) === gl[k]) correct++
      if (correct > bestT.correct) bestT = { c, e, correct }
    }
  }
  return {
    stopWords: best.n,
    pearson: best.r,
    contradiction: bestT.c,
    entailment: bestT.e,
    accuracy: ov.length === 0 ? NaN : bestT.correct / ov.length
  }
}
