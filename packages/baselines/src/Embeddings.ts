/**
 * Averaged word embeddings: a sentence is the mean of its known tokens' vectors, a pair scores the
 * cosine of its two means. Vectors (word2vec or GloVe text) are streamed, keeping only the input's
 * words, so memory grows with its vocabulary, not the file. A sentence with no known token scores
 * its pair 0, counted in the notes (no silent NaN in a run).
 *
 * @since 0.1.0
 */
import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import { Effect, Schema } from "effect"
import type { SentencePair, Scored } from "./TokenCosine.js"
import type { Tokenizer } from "./Tokenizer.js"

/**
 * @example
 * ```ts
 * import { Embeddings } from "@stseval/baselines"
 * import { Effect } from "effect"
 *
 * const loaded = Embeddings.load("glove.txt", new Set(["man"])).pipe(
 *   Effect.catchTag("EmbeddingsError", (e: Embeddings.EmbeddingsError) => Effect.die(e.message))
 * )
 * ```
 * @since 0.1.0
 */
export class EmbeddingsError extends Schema.TaggedError<EmbeddingsError>()("EmbeddingsError", {
  file: Schema.String,
  line: Schema.optionalKey(Schema.Number),
  message: Schema.String
}) {}

/**
 * Word vectors read from a text file, kept only for the words asked for.
 *
 * @since 0.1.0
 */
export interface Vectors {
  readonly format: "word2vec" | "glove"
  readonly dim: number
  /** only the words asked for that the file has */
  readonly vectors: ReadonlyMap<string, Float64Array>
  /** number of vector lines read */
  readonly read: number
}

/**
 * An incremental reader of a vectors file: `push` each line in order, then `done`. Pure apart
 * from its own state; `load` feeds it from a file stream, tests from strings.
 *
 * Lines: an optional `count dim` header (word2vec), then `word v1 ... vdim`. A line with more than
 * `dim + 1` fields has a word with spaces (some GloVe releases): the vector is the last `dim`. A
 * repeated word keeps its first vector. Errors are thrown as `EmbeddingsError` with the line.
 *
 * @example
 * ```ts
 * import { Embeddings } from "@stseval/baselines"
 *
 * // for a file read line by line (a stream): push each line as it arrives
 * const reader = Embeddings.makeReader("vectors.txt", new Set(["man"]))
 * reader.push("man 0.5 0.5")
 * reader.push("woman 0.4 0.6")
 * const vectors = reader.done() // only "man", asked for
 * ```
 * @since 0.1.0
 */
export const makeReader = (file: string, vocabulary: ReadonlySet<string>) => {
  let lineNo = 0
  let dim = -1
  let format: Vectors["format"] = "glove"
  let read = 0
  const vectors = new Map<string, Float64Array>()
  const fail = (message: string): never => {
    throw new EmbeddingsError({ file, line: lineNo, message })
  }
  return {
    push(raw: string): void {
      lineNo++
      const line = lineNo === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
      const trimmed = line.trim()
      if (trimmed === "") return
      const fields = trimmed.split(/[ \t]+/)
      if (lineNo === 1 && fields.length === 2 && /^\d+$/.test(fields[0]) && /^\d+$/.test(fields[1])) {
        format = "word2vec"
        dim = Number(fields[1])
        if (dim === 0) fail("the header gives dimension 0")
        return
      }
      if (dim === -1) {
        dim = fields.length - 1
        if (dim < 1) fail(`line ${lineNo} has no vector: a vectors line is a word then its components`)
      }
      if (fields.length < dim + 1) fail(`line ${lineNo} has ${fields.length - 1} components, the vectors have ${dim}`)
      read++
      const wordEnd = fields.length - dim
      const word = wordEnd === 1 ? fields[0] : fields.slice(0, wordEnd).join(" ")
      if (!vocabulary.has(word) || vectors.has(word)) return
      const v = new Float64Array(dim)
      for (let k = 0; k < dim; k++) {
        const x = Number(fields[wordEnd + k])
        if (!Number.isFinite(x)) fail(`component ${k + 1} of "${word}" on line ${lineNo} is not a finite number: ${fields[wordEnd + k]}`)
        v[k] = x
      }
      vectors.set(word, v)
    },
    done(): Vectors {
      return { format, dim: Math.max(dim, 0), vectors, read }
    }
  }
}

/**
 * Read vectors from lines already in memory (small files, tests).
 *
 * @example
 * ```ts
 * import { Embeddings } from "@stseval/baselines"
 *
 * // word2vec text format (a "count dim" header) or GloVe (none); only the words asked for are kept
 * const vectors = Embeddings.fromLines("vectors.txt", ["2 3", "man 1 0 0", "guitar 0 1 0"], new Set(["man"]))
 * vectors.format // "word2vec"
 * ```
 * @since 0.1.0
 */
export const fromLines = (file: string, lines: Iterable<string>, vocabulary: ReadonlySet<string>): Vectors => {
  const reader = makeReader(file, vocabulary)
  for (const l of lines) reader.push(l)
  return reader.done()
}

/**
 * Stream a vectors file line by line, keeping the vectors of `vocabulary` only.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Embeddings, Tokenizer } from "@stseval/baselines"
 * import { Effect } from "effect"
 *
 * const pairs = [{ sentence1: "A man sings", sentence2: "A woman sings" }]
 * const vectors = await Effect.runPromise(
 *   Embeddings.load("glove.6B.300d.txt", Embeddings.vocabularyOf(pairs, Tokenizer.whitespace)).pipe(Effect.provide(NodeServices.layer))
 * )
 * ```
 * @since 0.1.0
 */
export const load = (file: string, vocabulary: ReadonlySet<string>): Effect.Effect<Vectors, EmbeddingsError> =>
  Effect.tryPromise({
    try: async (signal) => {
      const reader = makeReader(file, vocabulary)
      const input = createReadStream(file, { encoding: "utf8", signal })
      const lines = createInterface({ input, crlfDelay: Infinity })
      try {
        for await (const line of lines) reader.push(line)
      } finally {
        lines.close()
        input.destroy()
      }
      return reader.done()
    },
    catch: (cause) =>
      cause instanceof EmbeddingsError ? cause : new EmbeddingsError({ file, message: `cannot read the vectors file: ${cause instanceof Error ? cause.message : String(cause)}` })
  })

/**
 * The distinct tokens of every sentence of the pairs: the vocabulary to load.
 *
 * @example
 * ```ts
 * import { Embeddings, Tokenizer } from "@stseval/baselines"
 *
 * Embeddings.vocabularyOf([{ sentence1: "A man sings", sentence2: "A woman sings" }], Tokenizer.whitespace) // Set {"A", "man", "sings", "woman"}
 * ```
 * @since 0.1.0
 */
export const vocabularyOf = (pairs: ReadonlyArray<SentencePair>, tokenizer: Tokenizer): Set<string> => {
  const vocabulary = new Set<string>()
  for (const p of pairs) for (const s of [p.sentence1, p.sentence2]) for (const t of tokenizer(s)) vocabulary.add(t)
  return vocabulary
}

/**
 * Mean of the vectors of the known tokens (every occurrence counts), or undefined when none is known.
 *
 * @example
 * ```ts
 * import { Embeddings } from "@stseval/baselines"
 *
 * const vectors = Embeddings.fromLines("v.txt", ["man 1 0", "sings 0 1"], new Set(["man", "sings"]))
 * Embeddings.sentenceVector(["man", "sings", "loudly"], vectors) // Float64Array [0.5, 0.5]: the mean of the known words
 * ```
 * @since 0.1.0
 */
export const sentenceVector = (tokens: ReadonlyArray<string>, vectors: Vectors): Float64Array | undefined => {
  const sum = new Float64Array(vectors.dim)
  let known = 0
  for (const t of tokens) {
    const v = vectors.vectors.get(t)
    if (v === undefined) continue
    known++
    for (let k = 0; k < sum.length; k++) sum[k] += v[k]
  }
  if (known === 0) return undefined
  for (let k = 0; k < sum.length; k++) sum[k] /= known
  return sum
}

/**
 * Cosine of two vectors; 0 when either has zero length.
 *
 * @example
 * ```ts
 * import { Embeddings } from "@stseval/baselines"
 *
 * Embeddings.cosine(new Float64Array([1, 0]), new Float64Array([1, 1])) // 0.7071...
 * ```
 * @since 0.1.0
 */
export const cosine = (a: Float64Array, b: Float64Array): number => {
  let ab = 0
  let aa = 0
  let bb = 0
  for (let k = 0; k < a.length; k++) {
    ab += a[k] * b[k]
    aa += a[k] * a[k]
    bb += b[k] * b[k]
  }
  return aa === 0 || bb === 0 ? 0 : ab / Math.sqrt(aa * bb)
}

/**
 * Score every pair: cosine of the averaged vectors. Pairs where a sentence has no known token
 * score 0 (counted in the notes), as do zero-length means.
 *
 * @example
 * ```ts
 * import { Embeddings, Tokenizer } from "@stseval/baselines"
 *
 * const vectors = Embeddings.fromLines("v.txt", ["man 1 0", "woman 0.8 0.2", "sings 0 1"], new Set(["man", "woman", "sings"]))
 * const { scores } = Embeddings.score([{ sentence1: "man sings", sentence2: "woman sings" }], vectors, Tokenizer.whitespace)
 * ```
 * @since 0.1.0
 */
export const score = (pairs: ReadonlyArray<SentencePair>, vectors: Vectors, tokenizer: Tokenizer): Scored => {
  let unknown = 0
  let tokensSeen = 0
  let tokensKnown = 0
  const scores = Float64Array.from(pairs, (p) => {
    const a = tokenizer(p.sentence1)
    const b = tokenizer(p.sentence2)
    for (const t of [...a, ...b]) {
      tokensSeen++
      if (vectors.vectors.has(t)) tokensKnown++
    }
    const va = sentenceVector(a, vectors)
    const vb = sentenceVector(b, vectors)
    if (va === undefined || vb === undefined) {
      unknown++
      return 0
    }
    return cosine(va, vb)
  })
  const notes = [`${tokensKnown} of ${tokensSeen} tokens have a vector; the others were skipped`]
  if (unknown > 0) notes.push(`${unknown} pair(s) with a sentence of no known token scored 0`)
  return { scores, notes }
}
