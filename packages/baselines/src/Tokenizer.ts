/**
 * Tokenisers used by the baselines: white space (STS 2014 token cosine), the SICK word-overlap
 * tokens (`\w+|[^\w\s]+`), and a Penn Treebank tokeniser (STS 2017 token cosine, a port of NLTK's
 * `TreebankWordTokenizer`). A tokeniser is a plain function from a sentence to its tokens.
 *
 * @since 0.1.0
 */

/**
 * A sentence split into tokens.
 *
 * @since 0.1.0
 */
export type Tokenizer = (sentence: string) => ReadonlyArray<string>

/**
 * Split on runs of white space (the STS 2014 "baseline-tokencos").
 *
 * @example
 * ```ts
 * import { Tokenizer } from "@stseval/baselines"
 *
 * Tokenizer.whitespace("A man  is\tsinging.") // ["A", "man", "is", "singing."]
 * ```
 * @since 0.1.0
 */
export const whitespace: Tokenizer = (sentence) => {
  const t = sentence.trim()
  return t === "" ? [] : t.split(/\s+/u)
}

// Python 2's `re` without re.UNICODE: \w is [A-Za-z0-9_], \s is [ \t\n\r\f\v].
const WORD_OR_PUNCT_ASCII = /[A-Za-z0-9_]+|[^A-Za-z0-9_ \t\n\r\f\v]+/g
// Unicode-aware variant: Python 3's \w is letters, numbers and the underscore (marks kept with
// their letter so that decomposed accents do not split a word).
const WORD_OR_PUNCT_UNICODE = /[\p{L}\p{M}\p{N}_]+|[^\p{L}\p{M}\p{N}_\s]+/gu

/**
 * The SICK word-overlap baseline's tokens: runs of word characters or runs of characters that are
 * neither word characters nor space (`\w+|[^\w\s]+`). By default `\w` is ASCII, as in the
 * organisers' Python 2 script (SICK is pure ASCII, so the choice does not change the released
 * run); `unicode: true` treats letters of any script as word characters.
 *
 * @example
 * ```ts
 * import { Tokenizer } from "@stseval/baselines"
 *
 * Tokenizer.wordOrPunct("don't stop...") // ["don", "'", "t", "stop", "..."]
 * ```
 * @since 0.1.0
 */
export const wordOrPunct = (sentence: string, options?: { readonly unicode?: boolean }): ReadonlyArray<string> =>
  sentence.match(options?.unicode === true ? WORD_OR_PUNCT_UNICODE : WORD_OR_PUNCT_ASCII) ?? []

/**
 * Wrap a tokeniser so that it lower-cases the sentence first (`toLowerCase`, locale-independent).
 *
 * @example
 * ```ts
 * import { Tokenizer } from "@stseval/baselines"
 *
 * Tokenizer.lowercased(Tokenizer.whitespace)("A Man") // ["a", "man"]
 * ```
 * @since 0.1.0
 */
export const lowercased =
  (tokenizer: Tokenizer): Tokenizer =>
  (sentence) =>
    tokenizer(sentence.toLowerCase())

// ---------------------------------------------------------------------------------------------
// Penn Treebank tokeniser.
//
// A port of NLTK 3.x `TreebankWordTokenizer.tokenize` (nltk/tokenize/treebank.py), its regular
// expressions in NLTK's order (the npm tokenisers follow other rules). Python 3's `re` is
// Unicode-aware: `\d` is any decimal digit, `\s` any white space, `\b` a boundary between word
// characters of any script and others.
// ---------------------------------------------------------------------------------------------

const W = "[\\p{L}\\p{N}\\p{M}_]"
const B = `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`
const D = "\\p{Nd}"

type Rule = readonly [RegExp, string]
const rule = (source: string, replacement: string, flags = ""): Rule => [new RegExp(source, `gu${flags}`), replacement]

const compile = () => ({
  STARTING_QUOTES: [
    rule('^"', "``"),
    rule("(``)", " $1 "),
    rule("([ ([{<])(\"|'{2})", "$1 `` ")
  ],
  PUNCTUATION: [
    rule(`([:,])([^${D}])`, " $1 $2"),
    rule("([:,])$", " $1 "),
    rule("\\.\\.\\.", " ... "),
    rule("[;@#$%&]", " $& "),
    // a final period (possibly followed by closing brackets or quotes) is split off
    rule("([^.])(\\.)([\\])}>\"']*)\\s*$", "$1 $2$3 "),
    rule("[?!]", " $& "),
    rule("([^'])' ", "$1 ' ")
  ],
  PARENS_BRACKETS: rule("[\\][(){}<>]", " $& "),
  DOUBLE_DASHES: rule("--", " -- "),
  ENDING_QUOTES: [
    rule("''", " '' "),
    rule('"', " '' "),
    rule("([^' ])('[sS]|'[mM]|'[dD]|') ", "$1 $2 "),
    rule("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "$1 $2 ")
  ],
  // NLTK's MacIntyreContractions (CONTRACTIONS2 and CONTRACTIONS3), case-insensitive.
  CONTRACTIONS: [
    rule(`${B}(can)(not)${B}`, " $1 $2 ", "i"),
    rule(`${B}(d)('ye)${B}`, " $1 $2 ", "i"),
    rule(`${B}(gim)(me)${B}`, " $1 $2 ", "i"),
    rule(`${B}(gon)(na)${B}`, " $1 $2 ", "i"),
    rule(`${B}(got)(ta)${B}`, " $1 $2 ", "i"),
    rule(`${B}(lem)(me)${B}`, " $1 $2 ", "i"),
    rule(`${B}(more)('n)${B}`, " $1 $2 ", "i"),
    rule(`${B}(wan)(na)(?=\\s)`, " $1 $2 ", "i"),
    rule(` ('t)(is)${B}`, " $1 $2 ", "i"),
    rule(` ('t)(was)${B}`, " $1 $2 ", "i")
  ]
})

// Compiled on first use, not when the module loads: the Unicode-property patterns take about 10 ms
// to compile, which every `stseval` start (score, rank, ...) would otherwise pay for nothing.
let compiled: ReturnType<typeof compile> | undefined
const rules = () => (compiled ??= compile())

const apply = (text: string, [re, replacement]: Rule): string => text.replace(re, replacement)

/**
 * Penn Treebank tokenisation, as NLTK's `TreebankWordTokenizer().tokenize(text)`: splits
 * punctuation and clitics (`don't` -> `do n't`, `they'll` -> `they 'll`), turns double quotes into
 * `` and '', splits a sentence-final period but keeps inner ones (`3.14`, `U.S.`). Language-neutral
 * rules: applied to Spanish and Arabic too, it splits their ASCII punctuation (Arabic `،` and `؟`
 * are not in the rule set and stay attached, as in NLTK).
 *
 * @example
 * ```ts
 * import { Tokenizer } from "@stseval/baselines"
 *
 * Tokenizer.treebank("They'll save and invest more.") // ["They", "'ll", "save", "and", "invest", "more", "."]
 * ```
 * @since 0.1.0
 */
export const treebank: Tokenizer = (sentence) => {
  const { STARTING_QUOTES, PUNCTUATION, PARENS_BRACKETS, DOUBLE_DASHES, ENDING_QUOTES, CONTRACTIONS } = rules()
  let text = sentence
  for (const r of STARTING_QUOTES) text = apply(text, r)
  for (const r of PUNCTUATION) text = apply(text, r)
  text = apply(text, PARENS_BRACKETS)
  text = apply(text, DOUBLE_DASHES)
  text = ` ${text} `
  for (const r of ENDING_QUOTES) text = apply(text, r)
  for (const r of CONTRACTIONS) text = apply(text, r)
  const t = text.trim()
  return t === "" ? [] : t.split(/\s+/u)
}

/**
 * The name of a built-in tokenizer, as the CLI's `--tokenizer` takes it.
 *
 * @since 0.1.0
 */
export type TokenizerName = "whitespace" | "treebank" | "word-or-punct"

/**
 * A tokeniser by name, optionally lower-casing.
 *
 * @example
 * ```ts
 * import { Tokenizer } from "@stseval/baselines"
 *
 * Tokenizer.byName("whitespace", { lowercase: true })("A Man sings") // ["a", "man", "sings"]
 * ```
 * @since 0.1.0
 */
export const byName = (name: TokenizerName, options?: { readonly lowercase?: boolean }): Tokenizer => {
  const base: Tokenizer = name === "whitespace" ? whitespace : name === "treebank" ? treebank : (s) => wordOrPunct(s, { unicode: true })
  return options?.lowercase === true ? lowercased(base) : base
}
