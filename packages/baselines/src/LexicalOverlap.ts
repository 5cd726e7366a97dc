/**
 * The lexical-overlap baseline of SemEval-2024 Task 1 (SemRel), as the organisers computed it
 * (`semrel_baselines/src/evaluate_lexical_overlap.py`): the Dice coefficient of the two sentences'
 * SETS of white-space tokens, 2 |A ∩ B| / (|A| + |B|). Tokens are Python's `str.split()` pieces:
 * no lower-casing, punctuation stays attached, repeated words count once.
 *
 * @since 0.1.0
 */

// Python's `str.split()` with no argument splits on runs of the characters `str.isspace()` accepts:
// JavaScript's `\s` differs (it has U+FEFF, and lacks U+001C-U+001F and U+0085), so the class is
// spelled out to match Python exactly.
// U+001C-U+001F are control characters, and exactly what Python counts as white space here.
// eslint-disable-next-line no-control-regex
const PYTHON_WHITESPACE = /[\t\n\v\f\r \u001c-\u001f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u

/**
 * White-space tokens as Python's `str.split()` gives them (no empty tokens).
 *
 * @example
 * ```ts
 * import { LexicalOverlap } from "@stseval/baselines"
 *
 * LexicalOverlap.tokens("The cat,  the hat.") // ["The", "cat,", "the", "hat."]
 * ```
 * @since 0.1.0
 */
export const tokens = (sentence: string): ReadonlyArray<string> => sentence.split(PYTHON_WHITESPACE).filter((t) => t !== "")

/**
 * Dice coefficient of two token sets: 2 |A ∩ B| / (|A| + |B|). Two empty sentences give NaN (the
 * organisers' script divides by zero there); `score` reports such pairs.
 *
 * @example
 * ```ts
 * import { LexicalOverlap } from "@stseval/baselines"
 *
 * // the Dice coefficient of the two sets: 2 * |{a, man}| / (3 + 3)
 * LexicalOverlap.dice(["a", "man", "sings"], ["a", "man", "a", "dances"]) // 0.666...
 * ```
 * @since 0.1.0
 */
export const dice = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const setA = new Set(a)
  const setB = new Set(b)
  let shared = 0
  for (const t of setA) if (setB.has(t)) shared++
  return (2 * shared) / (setA.size + setB.size)
}

/**
 * The lexical-overlap baseline's scores, one a pair, in the pairs' order.
 *
 * @since 0.1.0
 */
export interface Scored {
  readonly scores: Float64Array
  readonly notes: ReadonlyArray<string>
}

/**
 * The baseline's score for every pair. A pair whose two sentences are both empty scores 0 (with a
 * note) rather than the organisers' division by zero.
 *
 * @example
 * ```ts
 * import { LexicalOverlap } from "@stseval/baselines"
 *
 * // SemRel 2024's baseline: the Dice coefficient of the two sentences' sets of whitespace tokens
 * LexicalOverlap.score([{ sentence1: "the cat sat", sentence2: "the cat ran" }]).scores // Float64Array [0.666...]
 * ```
 * @since 0.1.0
 */
export const score = (pairs: ReadonlyArray<{ readonly sentence1: string; readonly sentence2: string }>): Scored => {
  const scores = new Float64Array(pairs.length)
  let empty = 0
  for (let i = 0; i < pairs.length; i++) {
    const d = dice(tokens(pairs[i].sentence1), tokens(pairs[i].sentence2))
    if (Number.isNaN(d)) empty++
    scores[i] = Number.isNaN(d) ? 0 : d
  }
  return { scores, notes: empty > 0 ? [`${empty} pair(s) with two empty sentences scored 0 (the organisers' script divides by zero there)`] : [] }
}
