/** @internal What a family of metrics shares, spread into each descriptor so that it is said once. */

/** Higher is better, in the edition's correlation style; a missing dataset counts as 0. */
export const correlationTraits = { kind: "scores", direction: "higher", display: { style: "correlation" }, missingValue: 0, correlation: true } as const

/** Lower is better, to three decimals; no value stands in for a missing dataset. */
export const squaredErrorTraits = { kind: "scores", direction: "lower", display: { style: "decimal", decimals: 3 }, missingValue: undefined, correlation: false } as const
