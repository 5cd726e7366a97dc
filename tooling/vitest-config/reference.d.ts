/** Pearson's r, textbook two-pass formula, written apart from the metrics package it checks. */
export declare const pearson: (x: ArrayLike<number>, y: ArrayLike<number>) => number
