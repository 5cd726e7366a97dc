/** mulberry32: a uniform generator on [0, 1) from a 32-bit seed, the tests' own (not the engine's). */
export declare const mulberry32: (seed: number) => () => number
