/**
 * Tokenisers on tricky text. Expected treebank tokens are NLTK's `TreebankWordTokenizer` output
 * (its docstring examples and the rules worked by hand), not our own output.
 */
import { describe, expect, it } from "vitest"
import { Tokenizer } from "@stseval/baselines"

describe("treebank (port of NLTK TreebankWordTokenizer)", () => {
  const tb = Tokenizer.treebank
  it("reproduces NLTK's docstring examples", () => {
    expect(tb("Good muffins cost $3.88\nin New York.  Please buy me\ntwo of them.\nThanks.")).toEqual([
      "Good", "muffins", "cost", "$", "3.88", "in", "New", "York.", "Please", "buy", "me", "two", "of", "them.", "Thanks", "."
    ])
    expect(tb("They'll save and invest more.")).toEqual(["They", "'ll", "save", "and", "invest", "more", "."])
    expect(tb("hi, my name can't hello,")).toEqual(["hi", ",", "my", "name", "ca", "n't", "hello", ","])
  })
  it("splits contractions and clitics", () => {
    expect(tb("don't")).toEqual(["do", "n't"])
    expect(tb("I cannot go, we're gonna stay")).toEqual(["I", "can", "not", "go", ",", "we", "'re", "gon", "na", "stay"])
    expect(tb("the man's hat")).toEqual(["the", "man", "'s", "hat"])
    expect(tb("'Tis true")).toEqual(["'T", "is", "true"])
  })
  it("turns double quotes into `` and ''", () => {
    expect(tb('"Hello," she said.')).toEqual(["``", "Hello", ",", "''", "she", "said", "."])
    expect(tb('He said "no" (twice).')).toEqual(["He", "said", "``", "no", "''", "(", "twice", ")", "."])
  })
  it("keeps digits, decimals and thousands separators, splits runs of punctuation", () => {
    expect(tb("It costs 3.50 dollars, or 3,000 cents: 1:30 pm")).toEqual([
      "It", "costs", "3.50", "dollars", ",", "or", "3,000", "cents", ":", "1:30", "pm"
    ])
    expect(tb("Wait...what?!")).toEqual(["Wait", "...", "what", "?", "!"])
    expect(tb("a--b")).toEqual(["a", "--", "b"])
    expect(tb("Mr. Smith left.")).toEqual(["Mr.", "Smith", "left", "."])
  })
  it("handles Spanish accents and punctuation it has no rule for", () => {
    expect(tb("¿Dónde está el niño?")).toEqual(["¿Dónde", "está", "el", "niño", "?"])
    expect(Tokenizer.lowercased(tb)("ÉL Niño, ¡sí!")).toEqual(["él", "niño", ",", "¡sí", "!"])
  })
  it("handles Arabic script: ASCII punctuation split, Arabic comma and question mark kept (no rule for them)", () => {
    expect(tb("ذهب الولد إلى المدرسة.")).toEqual(["ذهب", "الولد", "إلى", "المدرسة", "."])
    expect(tb("نعم، شكرا؟")).toEqual(["نعم،", "شكرا؟"])
    // Unicode \d: an ASCII comma before an Arabic-Indic digit is a thousands separator, not split
    expect(tb("٣,٠٠٠ كتاب")).toEqual(["٣,٠٠٠", "كتاب"])
  })
  it("gives no token for empty or blank sentences, and only punctuation for punctuation", () => {
    expect(tb("")).toEqual([])
    expect(tb("   \t ")).toEqual([])
    expect(tb("?!...")).toEqual(["?", "!", "..."])
    expect(tb("....")).toEqual(["...", "."])
  })
})

describe("whitespace (STS 2014)", () => {
  it("splits on runs of white space only", () => {
    expect(Tokenizer.whitespace("A man  is\tsinging.")).toEqual(["A", "man", "is", "singing."])
    expect(Tokenizer.whitespace("don't")).toEqual(["don't"])
    expect(Tokenizer.whitespace("")).toEqual([])
    expect(Tokenizer.whitespace("  ")).toEqual([])
  })
})

describe("wordOrPunct (SICK overlap: \\w+|[^\\w\\s]+)", () => {
  it("splits word runs from punctuation runs", () => {
    expect(Tokenizer.wordOrPunct("don't stop...")).toEqual(["don", "'", "t", "stop", "..."])
    expect(Tokenizer.wordOrPunct("3.50, ok?!")).toEqual(["3", ".", "50", ",", "ok", "?!"])
    expect(Tokenizer.wordOrPunct("")).toEqual([])
    expect(Tokenizer.wordOrPunct("?!")).toEqual(["?!"])
  })
  it("ASCII \\w by default (Python 2 re), Unicode letters on request", () => {
    expect(Tokenizer.wordOrPunct("café niño")).toEqual(["caf", "é", "ni", "ñ", "o"])
    expect(Tokenizer.wordOrPunct("café niño", { unicode: true })).toEqual(["café", "niño"])
    expect(Tokenizer.wordOrPunct("الولد، ذهب", { unicode: true })).toEqual(["الولد", "،", "ذهب"])
  })
})
