/** mulberry32: a uniform generator on [0, 1) from a 32-bit seed, the tests' own (not the engine's). */
export declare const mulberry32: (seed: number) => () => number
/** Two runs with exact r(gold, A) = rJk, r(gold, B) = rJh and r(A, B) = rKh (the inputs of a row of cocor's reference output). */
export declare const runsWithCorrelations: (gold: Float64Array, rJk: number, rJh: number, rKh: number, seed: number) => [Float64Array, Float64Array]
