/**
 * The task registry: every shared-task edition (SICK 2014, STS 2012-2017, STS Benchmark) as data.
 *
 * An edition says which datasets it has and where their gold is, the score scale, how a run is laid
 * out, the run limit per team, what is ranked (per subtask: metric and aggregate), what happens when
 * a run lacks a dataset, and how published tables print correlations. Nothing in the scorer branches
 * on an edition's id: a user edition loaded from a JSON / YAML file (see docs/task-registry.md and
 * docs/schemas/task-edition.schema.json) works exactly like a built-in one.
 *
 * Four parts: `registry/schema.ts` (the fields), `registry/checks.ts` (the rules across fields),
 * `registry/lookup.ts` (the built-ins and what callers ask of an edition), `registry/load.ts`
 * (decoding, files, `resolve`).
 *
 * @since 0.1.0
 */
export * from "./registry/schema.js"
export * from "./registry/lookup.js"
export * from "./registry/load.js"
