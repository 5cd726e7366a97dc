/**
 * The STS "baseline-tokencos": each sentence is a binary bag of tokens (a token is present or
 * not), and the score is the cosine of the two bags: |shared distinct tokens| / sqrt(|A| |B|).
 * 2014 split on white space; 2017 used treebank-style tokenisation and machine-translated the
 * cross-lingual pairs into English first. Translation is a pluggable step here (none is bundled).
 *
 * @since 0.1.0
 */
import type { Tokenizer } from "./Tokenizer.js"

/**
 * Cosine of two binary bags of tokens; 0 when either sentence has no token (the cosine is
 * undefined there; 0 = "nothing in common" keeps the run complete, and `score` notes such pairs).
 *
 * @example
 * ```ts
 * import { TokenCosine } from "@stseval/baselines"
 *
 * // binary bags {a, man, sings} and {a, man, dances}: 2 / sqrt(3 * 3)
 * TokenCosine.binaryCosine(["a", "man", "sings"], ["a", "man", "dances", "a"]) // 0.666...
 * ```
 * @since 0.1.0
 */
export const binaryCosine = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const setA = new Set(a)
  const setB = new Set(b)
  if (setA.size === 0 || setB.size === 0) return 0
  let shared = 0
  for (const t of setA) if (setB.has(t)) shared++
  return shared / Math.sqrt(setA.size * setB.size)
}

/**
 * ISO 639-1 code of a sentence's language, e.g. "en", "es", "ar", "tr".
 *
 * @since 0.1.0
 */
export type Language = string

/**
 * A machine-translation step for cross-lingual pairs: sentences (all in `from`) into `to`, one
 * output per input, in order. None is bundled; plug in your own.
 *
 * @since 0.1.0
 */
export type Translate = (sentences: ReadonlyArray<string>, from: Language, to: Language) => Promise<ReadonlyArray<string>>

/**
 * The two sentences of a pair, as the STS baselines read them.
 *
 * @since 0.1.0
 */
export interface SentencePair {
  readonly sentence1: string
  readonly sentence2: string
}

/**
 * How the token-cosine baseline tokenizes, by language.
 *
 * @since 0.1.0
 */
export interface Options {
  /** tokeniser for sentences in each language (fallback: `default`) */
  readonly tokenizer: Tokenizer | { readonly default: Tokenizer; readonly [language: string]: Tokenizer }
  /** languages of sentence1 and sentence2 (e.g. ["es", "en"]); same-language when omitted */
  readonly languages?: readonly [Language, Language]
}

/**
 * The token-cosine baseline's scores, one a pair, in the pairs' order.
 *
 * @since 0.1.0
 */
export interface Scored {
  readonly scores: Float64Array
  /** what a reader of the figures must know: no MT used, empty sentences, ... */
  readonly notes: ReadonlyArray<string>
}

const tokenizerFor = (t: Options["tokenizer"], language: Language | undefined): Tokenizer =>
  typeof t === "function" ? t : ((language !== undefined ? t[language] : undefined) ?? t.default)

/**
 * Score every pair (pure; no translation). A cross-lingual dataset scored this way compares the
 * sentences in their own languages, which a note says.
 *
 * @example
 * ```ts
 * import { TokenCosine, Tokenizer } from "@stseval/baselines"
 *
 * const { scores } = TokenCosine.score(
 *   [{ sentence1: "A man is playing a guitar.", sentence2: "A man is playing a guitar." }],
 *   { tokenizer: Tokenizer.whitespace }
 * )
 * scores[0] // 1
 * ```
 * @since 0.1.0
 */
export const score = (pairs: ReadonlyArray<SentencePair>, options: Options): Scored => {
  const [l1, l2] = options.languages ?? [undefined, undefined]
  const t1 = tokenizerFor(options.tokenizer, l1)
  const t2 = tokenizerFor(options.tokenizer, l2)
  const notes: Array<string> = []
  let empty = 0
  const scores = Float64Array.from(pairs, (p) => {
    const a = t1(p.sentence1)
    const b = t2(p.sentence2)
    if (a.length === 0 || b.length === 0) empty++
    return binaryCosine(a, b)
  })
  if (l1 !== undefined && l2 !== undefined && l1 !== l2) {
    notes.push(
      `cross-lingual ${l1}-${l2} pairs were scored in their own languages (no machine translation): the published 2017 baseline translated them into English first, so these figures are not comparable to it`
    )
  }
  if (empty > 0) notes.push(`${empty} pair(s) with an empty sentence scored 0`)
  return { scores, notes }
}

/**
 * Score every pair, translating first when the two sides' languages differ and `translate` is
 * given: every sentence not already in `target` (default "en") is translated into it, and the
 * target language's tokeniser is used for both sides. Without `translate`, as `score`.
 *
 * @example
 * ```ts
 * import { TokenCosine, Tokenizer } from "@stseval/baselines"
 *
 * declare const translate: TokenCosine.Translate
 * // cross-lingual pairs translated to English first, as STS 2017's baseline did
 * const scored = await TokenCosine.scoreTranslated([{ sentence1: "Un hombre canta.", sentence2: "A man sings." }], {
 *   tokenizer: Tokenizer.treebank,
 *   languages: ["es", "en"],
 *   translate,
 *   target: "en"
 * })
 * ```
 * @since 0.1.0
 */
export const scoreTranslated = async (
  pairs: ReadonlyArray<SentencePair>,
  options: Options & { readonly translate?: Translate; readonly target?: Language }
): Promise<Scored> => {
  const languages = options.languages
  const target = options.target ?? "en"
  if (options.translate === undefined || languages === undefined || languages[0] === languages[1]) return score(pairs, options)
  const side = async (sentences: ReadonlyArray<string>, from: Language) => {
    if (from === target) return sentences
    const out = await options.translate!(sentences, from, target)
    // the caller's translate broke its contract (one sentence out per sentence in): a programmer's error
    if (out.length !== sentences.length) throw new RangeError(`translate returned ${out.length} sentences for ${sentences.length}`)
    return out
  }
  const s1 = await side(
    pairs.map((p) => p.sentence1),
    languages[0]
  )
  const s2 = await side(
    pairs.map((p) => p.sentence2),
    languages[1]
  )
  const result = score(
    s1.map((sentence1, i) => ({ sentence1, sentence2: s2[i] })),
    { tokenizer: options.tokenizer, languages: [target, target] }
  )
  return { scores: result.scores, notes: [`${languages[0]}-${languages[1]} pairs were machine-translated into ${target} by the supplied translate step`, ...result.notes] }
}
