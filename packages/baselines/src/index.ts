/**
 * @stseval/baselines — the baseline systems of the SICK, STS and SemRel tasks: SICK word overlap, the
 * entailment chance / majority / probability baselines, STS token cosine, averaged word
 * embeddings and SemRel lexical overlap, with writers for runs in each task's own format.
 *
 * @since 0.1.0
 */
export * as Tokenizer from "./Tokenizer.js"
export * as Overlap from "./Overlap.js"
export * as Entailment from "./Entailment.js"
export * as TokenCosine from "./TokenCosine.js"
export * as Embeddings from "./Embeddings.js"
export * as LexicalOverlap from "./LexicalOverlap.js"
export * as Run from "./Run.js"
export * as Baseline from "./Baseline.js"
export * as Inputs from "./Inputs.js"
