import * as path from "node:path"
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Embeddings, Tokenizer } from "@stseval/baselines"
import { fixtures } from "./helpers.js"

const vocabulary = new Set(["man", "woman", "sings", "dog", "New York"])

describe("loading a vectors file (streamed, only the words used)", () => {
  it("reads word2vec text with its `count dim` header; a repeated word keeps its first vector", async () => {
    const v = await Effect.runPromise(Embeddings.load(path.join(fixtures, "vectors.w2v.txt"), vocabulary))
    expect([v.format, v.dim, v.read]).toEqual(["word2vec", 3, 4])
    expect([...v.vectors.keys()].sort()).toEqual(["man", "sings", "woman"])
    expect([...v.vectors.get("man")!]).toEqual([1, 0, 0])
  })
  it("reads GloVe (no header, CRLF), with a word containing a space", async () => {
    const v = await Effect.runPromise(Embeddings.load(path.join(fixtures, "vectors.glove.txt"), vocabulary))
    expect([v.format, v.dim]).toEqual(["glove", 3])
    expect([...v.vectors.get("New York")!]).toEqual([0, 3, 0])
  })
  it("keeps nothing outside the vocabulary", () => {
    const v = Embeddings.fromLines("mem", ["man 1 0", "cat 0 1"], new Set(["cat"]))
    expect([...v.vectors.keys()]).toEqual(["cat"])
  })
  it("fails with the line for a bad component or a short line, and for a missing file", async () => {
    expect(() => Embeddings.fromLines("mem", ["man 1 0", "dog 1 x"], new Set(["dog"]))).toThrow(/line 2/)
    expect(() => Embeddings.fromLines("mem", ["man 1 0", "dog 1"], new Set(["dog"]))).toThrow(/1 components, the vectors have 2/)
    const error = await Effect.runPromise(Effect.flip(Embeddings.load(path.join(fixtures, "absent.txt"), vocabulary)))
    expect(error._tag).toBe("EmbeddingsError")
    expect(error.message).toMatch(/cannot read the vectors file/)
  })
})

describe("Embeddings' error", () => {
  it("is a Schema.TaggedError: encoded by its schema, the same fields and message", () => {
    const error = new Embeddings.EmbeddingsError({ file: "v.txt", line: 2, message: "v.txt:2: bad" })
    expect(Schema.encodeSync(Embeddings.EmbeddingsError)(error)).toEqual({ _tag: "EmbeddingsError", file: "v.txt", line: 2, message: "v.txt:2: bad" })
    expect(error.message).toBe("v.txt:2: bad")
  })
})

describe("averaged embeddings cosine (hand-worked)", () => {
  const vectors = Embeddings.fromLines("mem", ["man 1 0 0", "woman 1 1 0", "sings 0 0 2"], vocabulary)
  it("averages the known tokens, skipping unknown ones", () => {
    expect([...Embeddings.sentenceVector(["man", "sings", "zebra"], vectors)!]).toEqual([0.5, 0, 1])
    expect(Embeddings.sentenceVector(["zebra"], vectors)).toBeUndefined()
  })
  it("scores the cosine of the means; a sentence of no known token scores 0 and is noted", () => {
    const res = Embeddings.score(
      [
        { sentence1: "man sings", sentence2: "woman" },
        { sentence1: "dog", sentence2: "man" }
      ],
      vectors,
      Tokenizer.whitespace
    )
    // (0.5, 0, 1) . (1, 1, 0) = 0.5; norms sqrt(1.25) and sqrt(2)
    expect(res.scores[0]).toBeCloseTo(0.5 / Math.sqrt(2.5), 15)
    expect(res.scores[1]).toBe(0)
    expect(res.notes).toEqual(["4 of 5 tokens have a vector; the others were skipped", "1 pair(s) with a sentence of no known token scored 0"])
  })
  it("collects the vocabulary the input uses", () => {
    expect([...Embeddings.vocabularyOf([{ sentence1: "A man", sentence2: "a dog" }], Tokenizer.lowercased(Tokenizer.whitespace))]).toEqual(["a", "man", "dog"])
  })
})
